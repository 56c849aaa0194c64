// The pull paced by the service's own rate headers: the server runs its windows at limitScale 0.05
// (100 requests and 20,000 blocks per 3 s) while the client is left at the documented numbers
// (no `budget.scale`), so only the X-RateLimit-* answers tell it how fast it may go. The initial
// pull of 200 documents × 40 blocks: wall time against the bound the server's windows allow, and
// the 429 answers it got.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { resolveLimits } from '../src/client/index.js';
import { createLogger } from '../src/log.js';
import { generateSpace, type LoggedRequest } from '../src/server/index.js';
import { openSyncSession, runPull } from '../src/sync/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { adminFetch, startServerProcess } from './serverProcess.js';

const SERVER_SCALE = 0.05;
const DOCUMENTS = 200;
const BLOCKS = 40;

export default async function headerPacingBench(): Promise<Figure[]> {
  const tmp = benchTempDir('headers');
  const fixtureFile = path.join(tmp, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: 3, seed: 16 })));
  const root = path.join(tmp, 'mirror');
  fs.mkdirSync(root);
  const server = await startServerProcess(fixtureFile, ['--limits', 'spec', '--limit-scale', String(SERVER_SCALE)]);
  const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  // No budget: the client starts from the documented 100 requests per 60 s.
  const session = await openSyncSession({ root, link: server.link, logger: silent });
  try {
    const t0 = performance.now();
    const pull = await runPull(session.ctx);
    const wallMs = performance.now() - t0;
    if (pull.written.length !== DOCUMENTS) throw new Error(`the initial pull wrote ${pull.written.length} of ${DOCUMENTS} documents`);
    const log = ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
    const blocks = log.reduce((n, r) => n + r.blocksCharged, 0);
    const served = resolveLimits({ scale: SERVER_SCALE });
    const windows = Math.max(log.length / served.spaceRequests.limit, blocks / served.blocks.limit);
    const boundMs = windows * served.spaceRequests.windowMs;
    const documented = resolveLimits();
    const documentedMs = Math.max(log.length / documented.spaceRequests.limit, blocks / documented.blocks.limit) * documented.spaceRequests.windowMs;
    return [
      {
        name: `initial pull ${DOCUMENTS}×${BLOCKS} against windows of ${served.spaceRequests.windowMs} ms, client at the documented numbers: wall time ÷ the server's bound`,
        measured: wallMs / boundMs,
        unit: 'ratio',
        target: { op: '<=', value: 1.2 },
        note: `${(wallMs / 1000).toFixed(2)} s against ${(boundMs / 1000).toFixed(2)} s (${windows.toFixed(2)} windows, ${log.length} requests, ${blocks} blocks); at the documented pace ${(documentedMs / 1000).toFixed(0)} s`,
      },
      {
        name: 'initial pull paced by the headers: 429 answers',
        measured: log.filter((r) => r.status === 429).length,
        unit: 'responses',
        target: { op: '<=', value: 0 },
      },
    ];
  } finally {
    session.close();
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
