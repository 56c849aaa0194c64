// What an idle mirror of 10,000 documents costs, with the stat cache and without it
// (SPACESYNC_STAT_CACHE=off, the settings' `statCache: false`): one full scan of the unchanged
// files, one idle poll cycle (beside the same poll made with the full listing instead of the
// documents modified since yesterday), and the daemon left idle (CPU seconds of its process over
// SPACESYNC_BENCH_IDLE_SECONDS, 600 by default; its RSS at the end of that idle time), run as the
// compiled command a user installs (dist/, as the rss benchmark runs it: tsx would add its own). The server
// runs as its own process, so only the sync's work is counted. The documents were last modified
// over the past year, 1 in 200 of them two hours ago (what the filtered listing then names).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateSpace } from '../src/server/index.js';
import { createLogger } from '../src/log.js';
import { openSyncSession } from '../src/sync/index.js';
import { scanLocal } from '../src/sync/documents/push/scanLocal.js';
import { syncOnce } from '../src/sync/cycle/syncOnce.js';
import { benchTempDir, type Figure } from './figure.js';
import { ListingMemo } from '../src/sync/documents/pull/pullMemos.js';
import { startServerProcess } from './serverProcess.js';
import { builtCommand } from './builtCommand.js';

const DOCUMENTS = 10_000;
const BLOCKS = 10;
const IDLE_SECONDS = Number(process.env.SPACESYNC_BENCH_IDLE_SECONDS ?? 600);
const TICKS_PER_SECOND = 100;

/** CPU milliseconds this process spends in `fn`. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A process's CPU seconds (utime + stime) and resident set (MiB), from /proc. */
function procUsage(pid: number): { cpuSeconds: number; rssMiB: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuSeconds: (f[11]! + f[12]!) / TICKS_PER_SECOND, rssMiB: rssKiB / 1024 };
}

const daemonSaved = (root: string): string | undefined => {
  try {
    const db = new Database(path.join(root, '.spacesync', 'journal.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT value FROM state WHERE key = 'status.daemon'").get() as { value: string } | undefined;
      return row ? (JSON.parse(row.value) as { savedAt?: string }).savedAt : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
};

/** The daemon beside the mirror, idle for `seconds`: its CPU share, and its RSS at the end of that idle time (what it keeps); then SIGTERM and the time to exit. */
async function idleDaemon(root: string, seconds: number, cache: boolean) {
  const before = daemonSaved(root);
  const child = spawn(process.execPath, [builtCommand(), 'sync', '--dir', root], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SPACESYNC_STAT_CACHE: cache ? 'on' : 'off' },
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    for (let i = 0; i < 1200 && daemonSaved(root) === before; i++) await new Promise((r) => setTimeout(r, 250));
    if (daemonSaved(root) === before) throw new Error('the daemon did not finish its first cycle in 5 minutes');
    const start = procUsage(child.pid!);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const end = procUsage(child.pid!);
    const t0 = performance.now();
    child.kill('SIGTERM');
    await exited;
    return {
      share: (end.cpuSeconds - start.cpuSeconds) / seconds,
      cpuSeconds: end.cpuSeconds - start.cpuSeconds,
      rssMiB: end.rssMiB,
      exitMs: performance.now() - t0,
    };
  } finally {
    child.kill('SIGKILL');
  }
}

export default async function idleBench(): Promise<Figure[]> {
  const tmp = benchTempDir('idle');
  const root = path.join(tmp, 'mirror');
  const fixture = path.join(tmp, 'space.json');
  const space = generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: 5, seed: 21 });
  (space.documents ?? []).forEach((d, i) => {
    d.createdAt = `now-${400 + (i % 50)}d`;
    d.lastModifiedAt = i % 200 === 0 ? 'now-2h' : `now-${2 + (i % 300)}d`;
  });
  fs.writeFileSync(fixture, JSON.stringify(space));
  const server = await startServerProcess(fixture, ['--limits', 'off']);
  try {
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    fs.writeFileSync(
      path.join(root, '.spacesync', 'config.json'),
      JSON.stringify(
        {
          link: server.link,
          budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000, reservePercent: 0 },
          log: { level: 'warn', file: false },
        },
        null,
        2,
      ),
    );
    const first = spawn(process.execPath, [builtCommand(), 'sync', '--once', '--dir', root], { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => first.on('close', resolve));
    if (code !== 0) throw new Error(`the first sync exited with ${code}`);
    // The files' timestamps must be older than the racy window (2 s) for their stats to be trusted.
    await new Promise((r) => setTimeout(r, 2500));

    const logger = createLogger({ level: 'warn' });
    const session = await openSyncSession({
      root,
      link: server.link,
      logger,
      budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000, reservePercent: 0 },
    });
    const { ctx } = session;
    const scans: Record<'on' | 'off', number[]> = { on: [], off: [] };
    /** A full cycle, as every poll was before polls took the watcher's paths (the stat cache on and off). */
    const fulls: Record<'on' | 'off', number[]> = { on: [], off: [] };
    /** A poll between full scans: the watcher named no file. */
    const polls: number[] = [];
    /** The same poll with the full listing (no recent complete listing known): what each poll was before. */
    const fullListingPolls: number[] = [];
    const pollRequests: number[] = [];
    /** The first filtered poll after a full cycle and a poll with the full listing. */
    const firstPolls: number[] = [];
    let read = 0;
    try {
      await syncOnce(ctx); // records every file's stat
      for (const mode of ['on', 'off'] as const) {
        ctx.settings = { ...ctx.settings, statCache: mode === 'on' };
        for (let i = 0; i < 5; i++) {
          scans[mode].push(
            await cpuMs(async () => {
              const s = await scanLocal(ctx);
              if (mode === 'on') read = Math.max(read, s.filesRead);
            }),
          );
          fulls[mode].push(await cpuMs(() => syncOnce(ctx)));
          if (mode === 'on') {
            ListingMemo.forget(ctx.journal);
            fullListingPolls.push(await cpuMs(() => syncOnce(ctx, { paths: [] })));
            // An idle daemon's poll follows an idle poll: the first one here pays for the garbage of the cycles before it.
            firstPolls.push(await cpuMs(() => syncOnce(ctx, { paths: [] })));
            const before = ctx.client.stats().total;
            polls.push(await cpuMs(() => syncOnce(ctx, { paths: [] })));
            pollRequests.push(ctx.client.stats().total - before);
          }
        }
      }
    } finally {
      session.close();
    }

    const on = await idleDaemon(root, IDLE_SECONDS, true);
    const off = await idleDaemon(root, Math.min(IDLE_SECONDS, 120), false);
    const at = `${DOCUMENTS.toLocaleString('en')} unchanged documents`;
    return [
      {
        name: `full scan of ${at}: CPU`,
        measured: Number(median(scans.on).toFixed(1)),
        unit: 'ms',
        target: { op: '<=', value: 300 },
        note: `stat cache off: ${median(scans.off).toFixed(1)} ms; files read with it on: ${read}; median of 5`,
      },
      {
        name: `idle poll cycle beside ${at} (the watcher named no file: the documents modified since yesterday and the folders, compared with the last complete listing): CPU`,
        measured: Number(median(polls).toFixed(1)),
        unit: 'ms',
        target: { op: '<=', value: 20 },
        note: `the same poll with the full listing: ${median(fullListingPolls).toFixed(1)} ms (${(median(fullListingPolls) / Math.max(0.1, median(polls))).toFixed(0)}×); the first filtered poll after a full cycle: ${median(firstPolls).toFixed(1)} ms; ${Math.max(...pollRequests)} requests per idle poll; a full cycle (every file through the stat cache; what each poll was before polls took the watcher's paths): ${median(fulls.on).toFixed(1)} ms, stat cache off: ${median(fulls.off).toFixed(1)} ms; median of 5`,
      },
      {
        name: `idle daemon beside ${at}: CPU share of one core over ${IDLE_SECONDS} s`,
        measured: Number((on.share * 100).toFixed(3)),
        unit: '%',
        target: { op: '<=', value: 0.5 },
        note: `${on.cpuSeconds.toFixed(2)} CPU-s; stat cache off: ${(off.share * 100).toFixed(3)} % over ${Math.min(IDLE_SECONDS, 120)} s; poll 15–120 s`,
      },
      {
        name: `idle daemon beside ${at}: RSS after its first full cycle and ${IDLE_SECONDS} s idle`,
        measured: Math.round(on.rssMiB),
        unit: 'MiB',
        target: { op: '<=', value: 120 },
        note: `stat cache off: ${Math.round(off.rssMiB)} MiB after ${Math.min(IDLE_SECONDS, 120)} s`,
      },
      {
        name: 'idle daemon: SIGTERM to exit',
        measured: Math.round(on.exitMs),
        unit: 'ms',
        target: { op: '<=', value: 1000 },
        note: `stat cache off: ${Math.round(off.exitMs)} ms`,
      },
    ];
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('close', r));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
