// Memory of `spacesync sync` mirroring a 10,000-document space: the compiled command runs as its
// own process (as a user runs it); the kernel's high-water mark of its resident set is read when it
// exits, and the daemon's resident set once it is idle after a full cycle. The server runs in this process with its limits off and the sync's budget set high, so the
// first pull finishes in a minute or so rather than the hour and a half the service's budget takes;
// the memory a pull holds does not depend on how fast it goes (documents are pulled 16 at a time).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { INBOX_FILE, LOGBOOK_FILE } from '../src/core/tasks/taskFiles.js';
import { generateSpace, startServer } from '../src/server/index.js';
import { builtCommand } from './builtCommand.js';
import { benchTempDir, type Figure } from './figure.js';
import { requestsOf, runMeasured } from './measuredCommand.js';
import { countDocumentFiles } from './mirrorFiles.js';

const DOCUMENTS = 10_000;
const BLOCKS = 10;
const FOLDERS = 5;
/** The first sync of the space: its peak. */
const FIRST_SYNC_MIB = 180;
/** The daemon beside the mirror after a full cycle: what it holds all day. */
const IDLE_DAEMON_MIB = 120;
/** An idle `sync --once`: its peak (a full scan of the mirror and one listing). */
const IDLE_ONCE_MIB = 180;

/** How long after its CPU stood still the idle daemon's resident set is read. */
const STEADY_AFTER_MS = 15_000;

const rssMiB = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const cpuTicks = (pid: number) =>
  fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]!
    .split(' ')
    .slice(11, 13)
    .reduce((a, b) => a + Number(b), 0);

/**
 * The daemon (`sync` without --once) on the mirror: its resident set once its first, full cycle is
 * done. The daemon says nothing when a cycle finds nothing to do, so "done" is its CPU time standing
 * still (at most 2 ticks a second) for 3 s in a row.
 */
async function idleDaemon(root: string): Promise<{ rssMiB: number; settledMiB: number; seconds: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [builtCommand(), 'sync', '--dir', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    let last = -1;
    for (let still = 0, i = 0; still < 3; i++) {
      if (i > 300 || child.exitCode !== null) throw new Error(`the daemon did not settle after its first cycle: ${out.trim()}`);
      await new Promise((r) => setTimeout(r, 1000));
      const ticks = cpuTicks(child.pid!);
      still = last >= 0 && ticks - last <= 2 ? still + 1 : 0;
      last = ticks;
    }
    // Then what it keeps: V8's memory reducer gives back pages ~8 s after the daemon's collection.
    const settledMiB = rssMiB(child.pid!);
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, STEADY_AFTER_MS));
    return { rssMiB: rssMiB(child.pid!), settledMiB, seconds };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export default async function rssBench(): Promise<Figure[]> {
  const tmp = benchTempDir('rss');
  const root = path.join(tmp, 'mirror');
  const measureFile = path.join(tmp, 'measure.json');
  const server = await startServer({ seed: generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: FOLDERS, seed: 21 }), limits: 'off' });
  try {
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    // What `spacesync init` writes, with a budget the server's limits-off mode can take.
    fs.writeFileSync(
      path.join(root, '.spacesync', 'config.json'),
      JSON.stringify(
        {
          link: server.baseUrl,
          budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000, reservePercent: 0 },
          log: { level: 'warn', file: true },
        },
        null,
        2,
      ),
    );

    const node = await runMeasured([], measureFile, ['-e', '0']);
    const runtime = await runMeasured(['--version'], measureFile);
    const first = await runMeasured(['sync', '--once', '--dir', root], measureFile);
    if (first.code !== 0) throw new Error(`the first sync exited with ${first.code}: ${first.stderr.trim()}`);
    const files = countDocumentFiles(root);
    if (files !== DOCUMENTS) throw new Error(`the first sync wrote ${files} document files for ${DOCUMENTS} documents`);
    for (const f of [INBOX_FILE, LOGBOOK_FILE]) if (!fs.existsSync(path.join(root, f))) throw new Error(`the first sync did not write ${f}`);
    const idle = await runMeasured(['sync', '--once', '--dir', root], measureFile);
    if (idle.code !== 0) throw new Error(`the second sync exited with ${idle.code}: ${idle.stderr.trim()}`);
    if (!/nothing to pull/.test(idle.stdout)) throw new Error(`the second sync was not idle: ${idle.stdout.trim()}`);
    const daemon = await idleDaemon(root);

    const space = `${DOCUMENTS.toLocaleString('en')} documents × ${BLOCKS} blocks in ${FOLDERS * 2} folders`;
    return [
      {
        name: `first sync --once of ${space}: peak RSS of the process`,
        measured: Math.round(first.peakMiB),
        unit: 'MiB',
        target: { op: '<=', value: FIRST_SYNC_MIB },
        note: `limits off, ${first.seconds.toFixed(1)} s (${first.cpuSeconds.toFixed(1)} s of CPU), ${requestsOf(first.stdout)} requests; the runtime alone (spacesync --version) peaks at ${Math.round(runtime.peakMiB)} MiB, node -e 0 at ${Math.round(node.peakMiB)} MiB`,
      },
      {
        name: `idle sync --once beside the ${DOCUMENTS.toLocaleString('en')}-document mirror: peak RSS of the process`,
        measured: Math.round(idle.peakMiB),
        unit: 'MiB',
        target: { op: '<=', value: IDLE_ONCE_MIB },
        note: `${idle.seconds.toFixed(1)} s, ${requestsOf(idle.stdout)} requests`,
      },
      {
        name: `the daemon beside the ${DOCUMENTS.toLocaleString('en')}-document mirror, idle after a full cycle: RSS`,
        measured: Math.round(daemon.rssMiB),
        unit: 'MiB',
        target: { op: '<=', value: IDLE_DAEMON_MIB },
        note: `read from /proc 15 s after its first cycle was done and its CPU time stood still for 3 s (${daemon.seconds.toFixed(0)} s after it started): ${Math.round(daemon.settledMiB)} MiB then, before V8's memory reducer ran; node -e 0 peaks at ${Math.round(node.peakMiB)} MiB`,
      },
      {
        name: `first sync --once of ${DOCUMENTS.toLocaleString('en')} documents, limits off: wall time`,
        measured: Number(first.seconds.toFixed(1)),
        unit: 's',
        note: "process start included; the service's budget would take ≥ 100 min",
      },
    ];
  } finally {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
