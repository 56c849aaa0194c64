// The server's memory under large request bodies: four 60 MB requests sent at once, first as JSON
// `POST /blocks` (over the JSON limit: refused before they are read), then as uploads the server
// takes (its upload limit raised to 64 MiB; bodies in flight share a 128 MiB budget, the rest are
// asked to retry); then four JSON writes just under the JSON limit, which are taken. The server runs as its own process; its resident set is sampled every 20 ms
// and its kernel high-water mark (reset before each round) read after it, while a probe asks GET /connection every
// 100 ms to show it still answers. Before the limits, one 100 MB POST /blocks took about 1 GB and
// four at once 2.9 GB.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { generateSpace } from '../src/server/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const BODY_BYTES = 60 * 1000 * 1000;
const CONCURRENT = 4;
const RSS_TARGET_MIB = 600;

const status = (pid: number) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
const kib = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)![1]);

/**
 * One POST with `body` on a keep-alive connection of its own, as clients send them (a refused body
 * is then read off and discarded by the server, and the refusal arrives); resolves with the status
 * (0: the connection dropped first).
 */
function post(url: string, contentType: string, body: Buffer): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<number>((resolve) => {
    const req = http.request(url, { agent, method: 'POST', headers: { 'content-type': contentType, 'content-length': String(body.length) } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  }).finally(() => agent.destroy());
}

interface Round {
  statuses: number[];
  /** The server's resident set when the round began. */
  beforeMiB: number;
  peakSampledMiB: number;
  highWaterMiB: number;
  probes: number;
  probeFailures: number;
  slowestProbeMs: number;
  seconds: number;
}

/** Sends CONCURRENT bodies at once while sampling the server's RSS and probing it. */
async function round(server: ServerProcess, url: string, contentType: string, body: Buffer): Promise<Round> {
  const pid = server.child.pid!;
  // Resets the kernel's high-water mark of the resident set, so it is this round's alone.
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  let peak = kib(status(pid), 'VmRSS');
  const beforeMiB = peak / 1024;
  const sampler = setInterval(() => (peak = Math.max(peak, kib(status(pid), 'VmRSS'))), 20);
  let probes = 0;
  let probeFailures = 0;
  let slowest = 0;
  let done = false;
  const probing = (async () => {
    while (!done) {
      const t0 = performance.now();
      const ok = await fetch(`${server.link}/connection`).then(
        (r) => r.status === 200,
        () => false,
      );
      slowest = Math.max(slowest, performance.now() - t0);
      probes++;
      if (!ok) probeFailures++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = performance.now();
  const statuses = await Promise.all(Array.from({ length: CONCURRENT }, () => post(url, contentType, body)));
  const seconds = (performance.now() - t0) / 1000;
  done = true;
  await probing;
  clearInterval(sampler);
  return {
    statuses,
    beforeMiB,
    peakSampledMiB: peak / 1024,
    highWaterMiB: kib(status(pid), 'VmHWM') / 1024,
    probes,
    probeFailures,
    slowestProbeMs: slowest,
    seconds,
  };
}

const counts = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${n}× ${s === '0' ? 'dropped' : s}`)
    .join(', ');

export default async function serverBodiesBench(): Promise<Figure[]> {
  const tmp = benchTempDir('bodies');
  const fixtureFile = path.join(tmp, 'space.json');
  const space = generateSpace({ documents: 50, blocksPerDocument: 10, folders: 2, seed: 5 });
  fs.writeFileSync(fixtureFile, JSON.stringify(space));
  const pageId = space.documents![0]!.id!;
  const server = await startServerProcess(fixtureFile, ['--limits', 'off', '--data', path.join(tmp, 'space.db'), '--max-upload-mib', '64']);
  try {
    const json = Buffer.from(`{"position":{"position":"end","pageId":"${pageId}"},"markdown":"${'a'.repeat(BODY_BYTES - 80)}"}`);
    const blocks = await round(server, `${server.link}/blocks`, 'application/json', json);
    const bytes = Buffer.alloc(BODY_BYTES);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    const uploads = await round(server, `${server.link}/upload?position=end&pageId=${pageId}`, 'application/octet-stream', bytes);
    if (uploads.statuses.every((s) => s !== 200)) throw new Error(`no upload was taken: ${counts(uploads.statuses)}`);
    // JSON bodies the server takes: 9.5 MB each, just under the limit, 500 blocks of 19 KB.
    const block = { type: 'text', markdown: 'b'.repeat(19_000) };
    const taken = Buffer.from(JSON.stringify({ position: { position: 'end', pageId }, blocks: Array.from({ length: 500 }, () => block) }));
    const writes = await round(server, `${server.link}/blocks`, 'application/json', taken);
    if (writes.statuses.every((s) => s !== 200)) throw new Error(`no JSON write was taken: ${counts(writes.statuses)}`);
    const probeNote = (r: Round) => `${r.probes} GET /connection meanwhile, ${r.probeFailures} failed, the slowest ${Math.round(r.slowestProbeMs)} ms`;
    return [
      {
        name: `${CONCURRENT} concurrent 60 MB POST /blocks (JSON, over its 10 MiB limit): peak RSS of the server`,
        measured: Math.round(blocks.highWaterMiB),
        unit: 'MiB',
        target: { op: '<=', value: RSS_TARGET_MIB },
        note: `answers: ${counts(blocks.statuses)} in ${blocks.seconds.toFixed(1)} s; sampled peak ${Math.round(blocks.peakSampledMiB)} MiB, ${Math.round(blocks.beforeMiB)} MiB before; ${probeNote(blocks)}`,
      },
      {
        name: `${CONCURRENT} concurrent 60 MB uploads (upload limit 64 MiB, 128 MiB of bodies in flight): peak RSS of the server`,
        measured: Math.round(uploads.highWaterMiB),
        unit: 'MiB',
        target: { op: '<=', value: RSS_TARGET_MIB },
        note: `answers: ${counts(uploads.statuses)} in ${uploads.seconds.toFixed(1)} s (503: retry after 1 s); sampled peak ${Math.round(uploads.peakSampledMiB)} MiB, ${Math.round(uploads.beforeMiB)} MiB before; ${probeNote(uploads)}; store in a --data file`,
      },
      {
        name: `${CONCURRENT} concurrent ${(taken.length / 1e6).toFixed(1)} MB POST /blocks of 500 blocks (JSON, under its limit): peak RSS of the server`,
        measured: Math.round(writes.highWaterMiB),
        unit: 'MiB',
        target: { op: '<=', value: RSS_TARGET_MIB },
        note: `answers: ${counts(writes.statuses)} in ${writes.seconds.toFixed(1)} s; sampled peak ${Math.round(writes.peakSampledMiB)} MiB, ${Math.round(writes.beforeMiB)} MiB before; ${probeNote(writes)}`,
      },
      {
        name: 'requests answered by the server while the large bodies arrived: failures',
        measured: blocks.probeFailures + writes.probeFailures + uploads.probeFailures,
        unit: 'requests',
        target: { op: '=', value: 0 },
        note: `${blocks.probes + writes.probes + uploads.probes} GET /connection; the slowest ${Math.round(Math.max(blocks.slowestProbeMs, writes.slowestProbeMs, uploads.slowestProbeMs))} ms`,
      },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
