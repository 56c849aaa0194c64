// How the sync's cost grows with the space: a first `sync --once` and then an idle one, of 10,000
// and of 50,000 documents × 10 blocks in 10 folders, in one run, as the compiled command a user
// installs (its own process; CPU time and peak RSS read by the process as it exits). The figure
// that matters is the ratio of the first sync's CPU per document at 50,000 to that at 10,000: work
// per document that grows with the space (a scan of every request in the budget's window on each
// request, a query over every record on each document) shows there and nowhere else.
//
// The server runs as its own process (`spacesync server`, its work not counted) with its limits
// off, the sync's budget lifted, so the pull goes as fast as the sync can. Each size's space is
// generated once and seeded once per run, and its server answers every sync of that size (the
// 10,000-document space is pulled before the 50,000 one and again after it): the server's seeding
// of 50,000 documents takes minutes, much of this benchmark's wall time, so it is kept out of the
// default run (`npm run bench -- scale`, or `--all`).
import fs from 'node:fs';
import path from 'node:path';
import { generateSpace } from '../src/server/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { requestsOf, runMeasured, type MeasuredRun } from './measuredCommand.js';
import { countDocumentFiles } from './mirrorFiles.js';
import { startServerProcess } from './serverProcess.js';

const SIZES = [10_000, 50_000] as const;
const BLOCKS = 10;
const FOLDERS = 5;
/** The first sync of 10,000 documents: its CPU seconds on the two-core machine of the report. */
const FIRST_SYNC_CPU_SECONDS = 30;
/** The first sync's CPU per document at 50,000 ÷ at 10,000. */
const PER_DOCUMENT_GROWTH = 1.2;

/** A space served for the benchmark: its server (its own process) and where its mirrors go. */
interface Space {
  documents: number;
  dir: string;
  link: string;
  seedSeconds: number;
  stop: () => Promise<void>;
}

async function serveSpace(tmp: string, documents: number): Promise<Space> {
  const dir = path.join(tmp, String(documents));
  fs.mkdirSync(dir, { recursive: true });
  const fixtureFile = path.join(dir, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace({ documents, blocksPerDocument: BLOCKS, folders: FOLDERS, seed: 21 })));
  const t0 = performance.now();
  const server = await startServerProcess(fixtureFile, ['--limits', 'off']);
  const seedSeconds = (performance.now() - t0) / 1000;
  fs.rmSync(fixtureFile);
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  return {
    documents,
    dir,
    link: server.link,
    seedSeconds,
    stop: async () => {
      server.child.kill();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Syncs {
  first: MeasuredRun;
  /** An idle `sync --once` after it, unless only the first was asked for. */
  idle: MeasuredRun | undefined;
}

/** A first `sync --once` of the space into a new mirror (then an idle one when `idle`); the mirror is removed after. */
async function syncInto(space: Space, name: string, idle: boolean): Promise<Syncs> {
  const root = path.join(space.dir, name);
  const measureFile = path.join(space.dir, `${name}.measure.json`);
  fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
  // What `spacesync init` writes, with a budget the server's limits-off mode can take.
  fs.writeFileSync(
    path.join(root, '.spacesync', 'config.json'),
    JSON.stringify({
      link: space.link,
      budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000, reservePercent: 0 },
      log: { level: 'warn', file: true },
    }),
  );
  const n = space.documents;
  try {
    const first = await runMeasured(['sync', '--once', '--dir', root], measureFile);
    if (first.code !== 0) throw new Error(`the first sync of ${n} documents exited with ${first.code}: ${first.stderr.trim()}`);
    const files = countDocumentFiles(root);
    if (files !== n) throw new Error(`the first sync wrote ${files} document files for ${n} documents`);
    if (!idle) return { first, idle: undefined };
    const again = await runMeasured(['sync', '--once', '--dir', root], measureFile);
    if (again.code !== 0) throw new Error(`the idle sync of ${n} documents exited with ${again.code}: ${again.stderr.trim()}`);
    if (!/nothing to pull/.test(again.stdout)) throw new Error(`the second sync of ${n} documents was not idle: ${again.stdout.trim()}`);
    return { first, idle: again };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const perDocMs = (run: MeasuredRun, documents: number) => (run.cpuSeconds * 1000) / documents;
const thousands = (n: number) => `${n / 1000}k`;
const firstNote = (run: MeasuredRun, documents: number) =>
  `${run.cpuSeconds.toFixed(1)} s CPU, ${perDocMs(run, documents).toFixed(2)} ms per document, ${run.seconds.toFixed(1)} s wall, ${requestsOf(run.stdout)} requests, peak RSS ${Math.round(run.peakMiB)} MiB`;
const idleNote = (run: MeasuredRun, documents: number) =>
  `${run.cpuSeconds.toFixed(2)} s CPU (${perDocMs(run, documents).toFixed(3)} ms per document), ${run.seconds.toFixed(1)} s wall, ${requestsOf(run.stdout)} requests, peak RSS ${Math.round(run.peakMiB)} MiB`;

export default async function scaleBench(): Promise<Figure[]> {
  const tmp = benchTempDir('scale');
  const [S, L] = SIZES;
  const small = await serveSpace(tmp, S);
  try {
    // The small space's first sync before the large one's and once more after it, so a stretch of
    // other work on the shared machine weighs on both sides of the ratio.
    const before = await syncInto(small, 'before', true);
    const large = await serveSpace(tmp, L);
    let big: Syncs;
    try {
      big = await syncInto(large, 'mirror', true);
    } finally {
      await large.stop();
    }
    const after = await syncInto(small, 'after', false);

    const smallCpu = (before.first.cpuSeconds + after.first.cpuSeconds) / 2;
    const smallPerDoc = (smallCpu * 1000) / S;
    const s = thousands(S);
    const l = thousands(L);
    const smallIdle = before.idle!;
    const bigIdle = big.idle!;
    const bothSmall = `before the ${l} sync: ${firstNote(before.first, S)}; after it: ${firstNote(after.first, S)}`;
    return [
      {
        name: `first sync --once of ${S.toLocaleString('en')} documents × ${BLOCKS} blocks, limits off: CPU of the process, mean of two`,
        measured: Number(smallCpu.toFixed(1)),
        unit: 's',
        target: { op: '<=', value: FIRST_SYNC_CPU_SECONDS },
        note: `${bothSmall}; the server (its own process, ${small.seedSeconds.toFixed(0)} s to seed) not counted`,
      },
      {
        name: `first sync --once: CPU per document at ${l} ÷ at ${s}`,
        measured: Number((perDocMs(big.first, L) / smallPerDoc).toFixed(3)),
        unit: 'ratio',
        target: { op: '<=', value: PER_DOCUMENT_GROWTH },
        note: `${l}: ${firstNote(big.first, L)}; ${s}: ${smallPerDoc.toFixed(2)} ms per document (mean of the two runs around it)`,
      },
      {
        name: `first sync --once of ${L.toLocaleString('en')} documents: CPU of the process`,
        measured: Number(big.first.cpuSeconds.toFixed(1)),
        unit: 's',
        note: `the server took ${large.seedSeconds.toFixed(0)} s to seed the space (not counted)`,
      },
      {
        name: `first sync --once of ${S.toLocaleString('en')} documents: peak RSS of the process`,
        measured: Math.round(before.first.peakMiB),
        unit: 'MiB',
        note: `${Math.round(after.first.peakMiB)} MiB in the run after the ${l} sync`,
      },
      {
        name: `first sync --once of ${L.toLocaleString('en')} documents: peak RSS of the process`,
        measured: Math.round(big.first.peakMiB),
        unit: 'MiB',
      },
      {
        name: `first sync --once: peak RSS at ${l} ÷ at ${s}`,
        measured: Number((big.first.peakMiB / before.first.peakMiB).toFixed(3)),
        unit: 'ratio',
        note: `${Math.round(big.first.peakMiB)} MiB ÷ ${Math.round(before.first.peakMiB)} MiB`,
      },
      {
        name: `idle sync --once: CPU at ${l} ÷ at ${s}`,
        measured: Number((bigIdle.cpuSeconds / smallIdle.cpuSeconds).toFixed(3)),
        unit: 'ratio',
        note: `${s}: ${idleNote(smallIdle, S)}; ${l}: ${idleNote(bigIdle, L)}`,
      },
      {
        name: `idle sync --once beside the ${S.toLocaleString('en')}-document mirror: peak RSS of the process`,
        measured: Math.round(smallIdle.peakMiB),
        unit: 'MiB',
      },
      {
        name: `idle sync --once beside the ${L.toLocaleString('en')}-document mirror: peak RSS of the process`,
        measured: Math.round(bigIdle.peakMiB),
        unit: 'MiB',
      },
      {
        name: `idle sync --once: peak RSS at ${l} ÷ at ${s}`,
        measured: Number((bigIdle.peakMiB / smallIdle.peakMiB).toFixed(3)),
        unit: 'ratio',
        note: `${Math.round(bigIdle.peakMiB)} MiB ÷ ${Math.round(smallIdle.peakMiB)} MiB`,
      },
    ];
  } finally {
    await small.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
