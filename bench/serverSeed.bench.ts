// `spacesync server --seed FILE` with generated spaces of 10,000 and 50,000 documents (10 blocks
// each, as bench/rss.bench.ts): the compiled command runs as its own process, as a user runs it;
// the time from its start to its "listening" line, and its resident set's high-water mark then
// (the kernel's VmHWM), for both sizes in one run. Loading should grow with the space, not with its
// square: 50,000 documents in at most 5× the time of 10,000.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateSpace } from '../src/server/index.js';
import { builtCommand } from './builtCommand.js';
import { benchTempDir, type Figure } from './figure.js';

const SMALL = 10_000;
const LARGE = 50_000;
const BLOCKS = 10;
const FOLDERS = 5;
const LARGE_RSS_MIB = 400;

const kib = (pid: number, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

interface Seeded {
  seconds: number;
  peakMiB: number;
  fileMiB: number;
}

/** Starts the server on `fixtureFile`, waits for its link, reads its peak RSS, stops it. */
async function seed(fixtureFile: string): Promise<Seeded> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [builtCommand(), 'server', '--port', '0', '--limits', 'off', '--seed', fixtureFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d);
        if (/listening: /.test(out)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the server exited with ${code} before listening: ${out.trim()}`)));
    });
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, peakMiB: kib(child.pid!, 'VmHWM') / 1024, fileMiB: fs.statSync(fixtureFile).size / 1024 / 1024 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export default async function serverSeedBench(): Promise<Figure[]> {
  const tmp = benchTempDir('seed');
  try {
    builtCommand();
    const files = [SMALL, LARGE].map((documents) => {
      const file = path.join(tmp, `space-${documents}.json`);
      fs.writeFileSync(file, JSON.stringify(generateSpace({ documents, blocksPerDocument: BLOCKS, folders: FOLDERS, seed: 21 })));
      return file;
    });
    const small = await seed(files[0]!);
    const large = await seed(files[1]!);
    const space = (n: number) => `${n.toLocaleString('en')} documents × ${BLOCKS} blocks`;
    return [
      {
        name: `server --seed of ${space(LARGE)} ÷ of ${space(SMALL)}: time to listening`,
        measured: Number((large.seconds / small.seconds).toFixed(2)),
        unit: 'ratio',
        target: { op: '<=', value: 5 },
        note: `${large.seconds.toFixed(1)} s against ${small.seconds.toFixed(1)} s (process start included; fixture files of ${Math.round(large.fileMiB)} and ${Math.round(small.fileMiB)} MiB)`,
      },
      {
        name: `server --seed of ${space(LARGE)}: peak RSS`,
        measured: Math.round(large.peakMiB),
        unit: 'MiB',
        target: { op: '<=', value: LARGE_RSS_MIB },
        note: `without --data (a temporary store, paged through a 32 MiB cache); ${space(SMALL)}: ${Math.round(small.peakMiB)} MiB`,
      },
      {
        name: `server --seed of ${space(SMALL)}: time to listening`,
        measured: Number(small.seconds.toFixed(1)),
        unit: 's',
      },
    ];
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
