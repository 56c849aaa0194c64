// The pull against the server with the spec's limits at limitScale 0.01 (100 requests and 20,000
// blocks per 0.6 s): the initial pull of 500 documents × 40 blocks (requests per item of the
// space, wall time against the rate-limit bound, 429s, peak RSS), the cost of an idle poll, and
// the cost of bringing one remote block change into its file. The server runs in its own process
// (`spacesync server`), so the RSS and the CPU (per document, beside the wall-time ratio: the
// nearer the pull's CPU comes to the bound, the more other work on the machine shows in the
// ratio) are the sync engine's alone.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { resolveLimits } from '../src/client/index.js';
import { createLogger } from '../src/log.js';
import { generateSpace, type LoggedRequest } from '../src/server/index.js';
import { openSyncSession, runPull, syncTaskFiles } from '../src/sync/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { adminFetch, startServerProcess } from './serverProcess.js';

const SCALE = 0.01;
const DOCUMENTS = 500;
const BLOCKS = 40;
const FOLDERS = 5; // top-level folders, each with one subfolder
/** unsorted, templates, trash and the daily notes. */
const LOCATIONS = 4;

export default async function pullBench(): Promise<Figure[]> {
  const tmp = benchTempDir('pull');
  const fixtureFile = path.join(tmp, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: FOLDERS, seed: 11 })));
  const root = path.join(tmp, 'mirror');
  fs.mkdirSync(root);
  const server = await startServerProcess(fixtureFile, ['--limits', 'spec', '--limit-scale', String(SCALE)]);
  const requests = async () => ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
  const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const session = await openSyncSession({ root, link: server.link, logger: silent, budget: { scale: SCALE } });
  try {
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const initial = await runPull(session.ctx);
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    // The server runs in its own process: this process's CPU during the pull is the pull's own.
    const cpuMs = (cpu.user + cpu.system) / 1000;
    clearInterval(sampler);
    const log = await requests();
    const blocks = log.reduce((n, r) => n + r.blocksCharged, 0);
    const limits = resolveLimits({ scale: SCALE });
    const windows = Math.max(log.length / limits.spaceRequests.limit, blocks / limits.blocks.limit);
    const boundMs = windows * limits.spaceRequests.windowMs;
    const items = DOCUMENTS + FOLDERS * 2 + LOCATIONS;
    if (initial.written.length !== DOCUMENTS) throw new Error(`the initial pull wrote ${initial.written.length} of ${DOCUMENTS} documents`);

    await syncTaskFiles(session.ctx); // the task files' first cycle writes them
    await adminFetch(server, '/requests', { method: 'DELETE' });
    // An idle cycle: the pull's listings and the task files' inbox listing.
    const idlePull = await runPull(session.ctx);
    const idleTasks = await syncTaskFiles(session.ctx);
    const idle = { requests: idlePull.requests + idleTasks.requests };

    const docId = initial.written[0]!.id;
    const doc = (await (await fetch(`${server.link}/blocks?id=${docId}&maxDepth=1`)).json()) as { content: Array<{ id: string }> };
    const put = await fetch(`${server.link}/blocks`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocks: [{ id: doc.content[3]!.id, markdown: 'one remote change' }] }),
    });
    if (put.status !== 200) throw new Error(`the remote change failed: ${put.status}`);
    await adminFetch(server, '/requests', { method: 'DELETE' });
    const change = await runPull(session.ctx);
    const changeRequests = (await requests()).length;
    if (change.written.length !== 1 || !fs.readFileSync(path.join(root, change.written[0]!.path), 'utf8').includes('one remote change')) {
      throw new Error('the remote change did not reach its file');
    }

    const rateLimited = log.filter((r) => r.status === 429).length;
    return [
      {
        name: `initial pull ${DOCUMENTS}×${BLOCKS}: requests ÷ (documents + folders + locations)`,
        measured: log.length / items,
        unit: 'ratio',
        target: { op: '<=', value: 1.05 },
        note: `${log.length} requests for ${items} items`,
      },
      {
        name: 'initial pull: wall time ÷ rate-limit bound',
        measured: wallMs / boundMs,
        unit: 'ratio',
        target: { op: '<=', value: 1.1 },
        note: `${(wallMs / 1000).toFixed(2)} s against ${(boundMs / 1000).toFixed(2)} s (${windows.toFixed(2)} windows of ${limits.spaceRequests.windowMs} ms, ${blocks} blocks); the pull's own CPU ${(cpuMs / 1000).toFixed(2)} s, ${(cpuMs / DOCUMENTS).toFixed(2)} ms per document, ${(cpuMs / boundMs).toFixed(2)}× the bound`,
      },
      {
        name: "initial pull: the pull's own CPU per document",
        measured: Number((cpuMs / DOCUMENTS).toFixed(2)),
        unit: 'ms',
        note: `${(cpuMs / 1000).toFixed(2)} s of CPU in the sync's process (the server has its own) for ${DOCUMENTS} documents: ${((100 * cpuMs) / boundMs).toFixed(0)} % of the bound, so the wall time ÷ bound rises with the other work of a two-core machine`,
      },
      { name: 'initial pull: 429 answers', measured: rateLimited, unit: 'responses', target: { op: '<=', value: 0 } },
      {
        name: 'initial pull: peak RSS of the sync engine',
        measured: Math.round(peakRss / 2 ** 20),
        unit: 'MiB',
        note: `${Math.round(rssBefore / 2 ** 20)} MiB before the pull`,
      },
      {
        name: 'idle poll: requests per cycle',
        measured: idle.requests,
        unit: 'requests',
        target: { op: '<=', value: 3 },
        note: `${idlePull.requests} for the documents and folders, ${idleTasks.requests} for the task inbox`,
      },
      {
        name: 'one remote block change → file updated: requests (poll included)',
        measured: changeRequests,
        unit: 'requests',
        target: { op: '<=', value: 3 },
        note: `written by ${change.written[0]!.mode}`,
      },
    ];
  } finally {
    session.close();
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
