// The limits on request bodies (docs/server.md "Request bodies"): JSON bodies and uploads each
// have a limit (413 before the body is read when its Content-Length says so, as soon as it passes
// the limit otherwise), bodies in flight share a budget (503 + Retry-After past it), and nesting
// has a depth limit (400, not a crash). The memory these keep the server in is measured in
// bench/serverBodies.bench.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

let h: Harness;
let tight: Harness;
const MiB = 1024 * 1024;
beforeAll(async () => {
  h = await startHarness({ fixture });
  tight = await startHarness({ fixture, maxUploadBytes: 2 * MiB, maxBodyBytesInFlight: MiB });
});
afterAll(async () => {
  await h.close();
  await tight.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * A request whose body is sent piece by piece: `declared` is its Content-Length (chunked when
 * undefined). Resolves with the answer as soon as it comes, even if the body was not all sent.
 */
function send(url: string, opts: { declared?: number; contentType?: string }) {
  // A connection of its own: a refused body is left half sent, and its socket is not reused.
  const req = http.request(url, {
    agent: false,
    method: 'POST',
    headers: {
      'content-type': opts.contentType ?? 'application/octet-stream',
      ...(opts.declared !== undefined ? { 'content-length': String(opts.declared) } : {}),
    },
  });
  req.on('error', () => undefined); // the server may close the connection on a refused body
  req.flushHeaders();
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text }));
      res.on('error', reject);
    });
  });
  return {
    write: (b: Buffer) => new Promise<void>((resolve) => (req.write(b) ? resolve() : req.once('drain', () => resolve()))),
    end: (b?: Buffer) => req.end(b),
    answer,
  };
}

const uploadUrl = (on: Harness) => `${on.server.baseUrl}/upload?position=end&pageId=${ids.unsorted}`;
const blocksUrl = (on: Harness) => `${on.server.baseUrl}/blocks`;
const unsortedCount = async (on: Harness) => (await on.api('GET', '/blocks', { query: { id: ids.unsorted } })).body.content.length;

describe('JSON bodies', () => {
  it('over 10 MiB by their Content-Length: a 413 naming the size and the limit, before the body is read', async () => {
    const big = Buffer.alloc(11 * MiB, 0x20);
    const r = send(blocksUrl(h), { declared: big.length, contentType: 'application/json' });
    await r.write(big.subarray(0, 64 * 1024));
    const a = await r.answer;
    r.end();
    expect(a.status).toBe(413);
    expect(a.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      error: expect.stringMatching(/11 MiB \(11534336 bytes\), over the limit of 10 MiB \(10485760 bytes\)/),
    });
    expect((await h.api('GET', '/connection')).status).toBe(200);
  });

  it('over 10 MiB while they arrive (no Content-Length): a 413, and nothing is written', async () => {
    const r = send(blocksUrl(h), { contentType: 'application/json' });
    void r.write(Buffer.from(`{"position":{"position":"end","pageId":"${ids.unsorted}"},"markdown":"`));
    for (let i = 0; i < 11; i++) await r.write(Buffer.alloc(MiB, 0x61));
    r.end(Buffer.from('"}'));
    const a = await r.answer;
    expect(a.status).toBe(413);
    expect(a.body.error).toMatch(/over the limit of 10 MiB/);
    expect(await unsortedCount(h)).toBe(1);
  });

  it('up to the limit they are read as before', async () => {
    const markdown = 'x'.repeat(9 * MiB);
    const r = await h.api('POST', '/blocks', { body: { markdown, position: { position: 'end', pageId: ids.unsorted } } });
    expect(r.status).toBe(200);
    expect(r.body.items[0].markdown).toHaveLength(9 * MiB);
  });
});

describe('uploads', () => {
  it('over the upload limit while they arrive (no Content-Length): a 413 naming the limit, and nothing is written', async () => {
    await tight.reset();
    const r = send(uploadUrl(tight), {});
    for (let i = 0; i < 3; i++) await r.write(Buffer.alloc(MiB, 7));
    r.end();
    const a = await r.answer;
    expect(a.status).toBe(413);
    expect(a.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      error: expect.stringMatching(/upload is over the limit of 2 MiB \(2097152 bytes\): send a smaller file/),
    });
    expect(await unsortedCount(tight)).toBe(1);
  });

  it('arrive in a file and are stored byte for byte', async () => {
    await tight.reset();
    const bytes = Buffer.alloc(MiB + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
    const r = send(uploadUrl(tight), {});
    await r.write(bytes.subarray(0, 1000));
    r.end(bytes.subarray(1000));
    const a = await r.answer;
    expect(a.status).toBe(200);
    expect(Buffer.from(await (await fetch(a.body.assetUrl)).arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('the budget of bodies in flight', () => {
  it('a body that does not fit while others arrive is a 503 with Retry-After; other requests are answered meanwhile', async () => {
    await tight.reset();
    const first = send(uploadUrl(tight), { declared: 800 * 1024 });
    await first.write(Buffer.alloc(100 * 1024, 1));
    // The first body is in flight: 800 KiB of the 1 MiB budget.
    let second: Answer | undefined;
    for (let i = 0; i < 50 && second?.status !== 503; i++) {
      const r = send(uploadUrl(tight), { declared: 800 * 1024 });
      second = await r.answer;
      r.end();
    }
    expect(second!.status).toBe(503);
    expect(second!.headers['retry-after']).toBe('1');
    expect(second!.body).toEqual({
      code: 'SERVER_BUSY',
      error: expect.stringMatching(/receiving 0\.8 MiB of request bodies \(at most 1 MiB at once\).*retry after/),
    });
    expect((await tight.api('GET', '/connection')).status).toBe(200);
    expect((await tight.api('GET', '/blocks', { query: { id: ids.unsorted } })).status).toBe(200);
    first.end(Buffer.alloc(700 * 1024, 1));
    expect((await first.answer).status).toBe(200);
    // Room again: the same body is taken.
    const again = send(uploadUrl(tight), { declared: 800 * 1024 });
    again.end(Buffer.alloc(800 * 1024, 2));
    expect((await again.answer).status).toBe(200);
    expect(await unsortedCount(tight)).toBe(3);
  });

  it('a body alone is always taken, even one larger than the budget', async () => {
    await tight.reset();
    const r = send(uploadUrl(tight), { declared: 1536 * 1024 });
    r.end(Buffer.alloc(1536 * 1024, 3));
    expect((await r.answer).status).toBe(200);
  });
});

describe('nesting', () => {
  const nested = (levels: number) => {
    let b: Record<string, unknown> = { type: 'text', markdown: 'leaf' };
    for (let i = 1; i < levels; i++) b = { type: 'page', markdown: `level ${levels - i}`, content: [b] };
    return b;
  };

  it('blocks nested 450 deep are a 400 naming the limit of 100 levels, not an internal error', async () => {
    const r = await h.api('POST', '/blocks', { body: { blocks: [nested(450)], position: { position: 'end', pageId: ids.unsorted } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ message: expect.stringMatching(/more than 100 levels deep.*at most 100 levels/), path: ['blocks'] }],
    });
    expect(await unsortedCount(h)).toBeGreaterThan(0);
  });

  it('blocks nested 100 deep are written', async () => {
    const r = await h.api('POST', '/blocks', { body: { blocks: [nested(100)], position: { position: 'end', pageId: ids.unsorted } } });
    expect(r.status).toBe(200);
  });

  it('any JSON body nested deeper than 256 levels is a 400 naming the limit', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 2000; i++) deep = [deep];
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'x', extra: deep }] } });
    expect(r.status).toBe(400);
    expect(r.body.details[0].message).toMatch(/more than 256 levels deep; at most 256 levels/);
  });
});
