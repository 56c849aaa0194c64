import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTransport, TransportError } from './transport.js';

// A real local server: each path misbehaves in one way.
let server: http.Server;
let base: string;
const ports: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    ports.push(req.socket.remotePort ?? 0);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/echo') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '7' });
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), ua: req.headers['user-agent'] }));
      } else if (req.url === '/big' || req.url === '/big-chunked') {
        // 1 MiB and a little, in pieces: with its length announced, and without (chunked).
        const big = Buffer.from(Array.from({ length: 70_000 }, (_, i) => `${i},`).join(''));
        res.writeHead(200, req.url === '/big' ? { 'content-length': String(big.length) } : {});
        for (let at = 0; at < big.length; at += 10_000) res.write(big.subarray(at, at + 10_000));
        res.end();
      } else if (req.url === '/reset') {
        req.socket.destroy();
      } else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 10);
      }
      // '/hang' never answers.
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function failure(p: Promise<unknown>): Promise<TransportError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof TransportError)) throw new Error(`expected a TransportError, got ${String(e)}`);
  return e;
}

describe('httpTransport', () => {
  it('sends the body and headers, returns status, lower-case headers and body, over one kept-alive connection', async () => {
    const t = httpTransport();
    ports.length = 0;
    const a = await t({ method: 'POST', url: `${base}/echo`, headers: { 'user-agent': 'spacesync/test' }, body: Buffer.from('{"a":1}'), timeoutMs: 5000 });
    const b = await t({ method: 'GET', url: `${base}/echo`, headers: {}, timeoutMs: 5000 });
    expect(a.status).toBe(200);
    expect(a.headers['x-ratelimit-remaining']).toBe('7');
    expect(JSON.parse(a.body.toString())).toEqual({ method: 'POST', body: '{"a":1}', ua: 'spacesync/test' });
    expect(JSON.parse(b.body.toString()).method).toBe('GET');
    expect(ports[0]).toBe(ports[1]);
    t.close();
  });

  it('gives a large body back byte for byte, its length announced or not', async () => {
    const t = httpTransport();
    const want = Buffer.from(Array.from({ length: 70_000 }, (_, i) => `${i},`).join(''));
    for (const p of ['/big', '/big-chunked']) {
      const r = await t({ method: 'GET', url: `${base}${p}`, headers: {}, timeoutMs: 5000 });
      expect(r.body.equals(want)).toBe(true);
    }
    t.close();
  });

  it('reports a refused connection as not sent', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const t = httpTransport();
    const e = await failure(t({ method: 'POST', url: `http://127.0.0.1:${port}/x`, headers: {}, body: Buffer.from('{}'), timeoutMs: 5000 }));
    expect(e).toMatchObject({ reason: 'connect', sent: false });
    t.close();
  });

  it('reports a connection dropped after the request was sent as a reset that may have been applied', async () => {
    const t = httpTransport();
    const e = await failure(t({ method: 'POST', url: `${base}/reset`, headers: {}, body: Buffer.from('{}'), timeoutMs: 5000 }));
    expect(e).toMatchObject({ reason: 'reset', sent: true });
    const cut = await failure(t({ method: 'GET', url: `${base}/cut`, headers: {}, timeoutMs: 5000 }));
    expect(cut).toMatchObject({ reason: 'reset', sent: true });
    t.close();
  });

  it('gives up on a request that gets no answer in time', async () => {
    const t = httpTransport();
    const e = await failure(t({ method: 'PUT', url: `${base}/hang`, headers: {}, body: Buffer.from('{}'), timeoutMs: 50 }));
    expect(e).toMatchObject({ reason: 'timeout', sent: true });
    t.close();
  });
});
