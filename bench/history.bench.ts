// The version history's cost (issue 14), each ratio measured in one run with the history on and off
// in turn: a one-block edit pushed from a 1,000-block document (the push records the document's
// blocks before it overwrites one), on one mirror; and a pull cycle bringing 10 remote edits into
// their files, on two mirrors of one space, one with the history on and 2,000 versions kept (none
// due: retention runs at each cycle's start), one with it off (then retention alone, as context). Then the weight of
// `.spacesync/` beside a 10,000-document mirror after 45 days of 100 documents a day changed on
// both sides (a local version of each file and the space's blocks of each document kept), with
// the default retention (30 days, 200 MiB) applied at the start of each day's cycle, and each
// file's stat recorded by a full scan (the stat cache every daemon fills).
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createLogger } from '../src/log.js';
import { generateSpace } from '../src/server/index.js';
import { openSyncSession, pushLocal, syncOnce, type DocumentTask, type SyncSession } from '../src/sync/index.js';
import { pruneVersions } from '../src/sync/versions/pruneVersions.js';
import { recordRemoteHistory } from '../src/sync/documents/push/recordRemoteHistory.js';
import { saveLocalVersion } from '../src/sync/context/saveLocalVersion.js';
import { benchTempDir, type Figure } from './figure.js';
import { startServerProcess, type ServerProcess } from './serverProcess.js';

const ROUNDS = 41;
const ON = { keepDays: 30, maxMiB: 200 };
const OFF = { keepDays: 0, maxMiB: 200 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// A collection before each timed round, so that neither side pays for the garbage of the other's
// (or of the untimed preparation).
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;
const silent = () => createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });

async function withMirror<T>(
  name: string,
  space: Parameters<typeof generateSpace>[0],
  run: (s: SyncSession, server: ServerProcess, root: string) => Promise<T>,
): Promise<T> {
  const tmp = benchTempDir(name);
  const fixtureFile = path.join(tmp, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace(space)));
  const root = path.join(tmp, 'mirror');
  fs.mkdirSync(root);
  const server = await startServerProcess(fixtureFile, ['--limits', 'off']);
  // The server's limits are off and the client's budget out of the way: the figures time the sync, not its pacing.
  const session = await openSyncSession({
    root,
    link: server.link,
    logger: silent(),
    budget: { requestsPerMinute: 1_000_000, requestsPerAddress10s: 1_000_000, blocksPerMinute: 100_000_000 },
  });
  try {
    await syncOnce(session.ctx);
    return await run(session, server, root);
  } finally {
    session.close();
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs `round` ROUNDS times with the history on and off, in the order on, off, off, on… (so neither
 * side always follows the other), after a warm-up of each, with a garbage collection (untimed)
 * before each. Each two neighbouring rounds (one on, one off) give a ratio: their median is the
 * figure, so that a slower stretch of a shared machine weighs on both sides of a pair alike.
 * Medians in ms beside it.
 */
async function onOff(round: (on: boolean, i: number) => Promise<void>): Promise<{ ratio: number; on: number; off: number }> {
  const times = { on: [] as number[], off: [] as number[] };
  const ratios: number[] = [];
  let pair: { on?: number; off?: number } = {};
  for (let i = -2; i < 2 * ROUNDS; i++) {
    const on = i < 0 ? i === -2 : i % 4 === 0 || i % 4 === 3;
    collect();
    const t0 = performance.now();
    await round(on, i + 2);
    const ms = performance.now() - t0;
    if (i < 0) continue;
    times[on ? 'on' : 'off'].push(ms);
    pair[on ? 'on' : 'off'] = ms;
    if (i % 2 === 1) {
      ratios.push(pair.on! / pair.off!);
      pair = {};
    }
  }
  return { ratio: median(ratios), on: median(times.on), off: median(times.off) };
}

async function pushCost(): Promise<Figure[]> {
  return withMirror('hist-push', { documents: 1, blocksPerDocument: 1_000, folders: 0, seed: 5 }, async (session, _server, root) => {
    const [doc] = session.journal.listDocuments();
    const file = path.join(root, doc!.path);
    const r = await onOff(async (on, i) => {
      session.ctx.settings.versions = on ? ON : OFF;
      const text = fs.readFileSync(file, 'utf8');
      const lines = text.split('\n');
      const at = lines.findIndex((l, k) => k > 20 + i && /^[a-z][a-z ]+ \d+ with \*\*bold\*\*/.test(l));
      lines[at] = `${lines[at]} edited ${i}`;
      fs.writeFileSync(file, lines.join('\n'));
      session.journal.replaceListing(new Date(0).toISOString(), []);
      const pushed = await pushLocal(session.ctx, { paths: [doc!.path] });
      if ((pushed.outcome?.sent.filter((s) => s.method === 'PUT').length ?? 0) !== 1) throw new Error('the edit was not pushed in one PUT');
    });
    session.ctx.settings.versions = ON;
    const versions = session.journal.listHistory().length;
    if (versions !== ROUNDS + 1) throw new Error(`${versions} versions recorded, expected ${ROUNDS + 1}`);
    return [
      {
        name: 'history: one-block edit in a 1,000-block document, push with history ÷ without',
        measured: Number(r.ratio.toFixed(3)),
        unit: 'ratio',
        target: { op: '<', value: 1.05 },
        note: `median of ${ROUNDS} neighbouring pairs' ratios; medians ${r.on.toFixed(1)} ms with, ${r.off.toFixed(1)} ms without`,
      },
    ];
  });
}

/** The same space pulled into two mirrors: one with the history on and 2,000 versions kept, one with it off. */
async function pullCost(): Promise<Figure[]> {
  const space = { documents: 100, blocksPerDocument: 40, folders: 2, seed: 11 };
  return withMirror('hist-pull-on', space, (withHistory, serverOn) =>
    withMirror('hist-pull-off', space, async (without, serverOff) => {
      without.ctx.settings.versions = OFF;
      // Retention at each cycle's start weighs a history of 2,000 versions, none due. Without the
      // history there is none (retention with keepDays 0 would drop them all).
      const [one] = withHistory.journal.listDocuments();
      withHistory.journal.transaction(() => {
        for (let k = 0; k < 2_000; k++) {
          withHistory.journal.addHistory({
            at: new Date().toISOString(),
            side: 'remote',
            docId: one!.id,
            path: one!.path,
            cause: 'push',
            request: 'PUT /blocks',
            versionFile: null,
            size: 2_000,
            blocks: [],
            summary: { added: 0, removed: 0, edited: 1 },
          });
        }
      });
      withHistory.journal.checkpoint();
      const mirrors = await Promise.all(
        [
          { session: withHistory, server: serverOn },
          { session: without, server: serverOff },
        ].map(async (m) => {
          const ids = m.session.journal
            .listDocuments()
            .slice(0, 10)
            .map((d) => d.id);
          const blocks = await Promise.all(
            ids.map(
              async (id) => ((await (await fetch(`${m.server.link}/blocks?id=${id}&maxDepth=1`)).json()) as { content: Array<{ id: string }> }).content[2]!.id,
            ),
          );
          return { ...m, blocks };
        }),
      );
      const r = await onOff(async (on, i) => {
        const m = mirrors[on ? 0 : 1]!;
        const put = await fetch(`${m.server.link}/blocks`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ blocks: m.blocks.map((id) => ({ id, markdown: `remote change ${i}` })) }),
        });
        if (put.status !== 200) throw new Error(`the remote change failed: ${put.status}`);
        const cycle = await syncOnce(m.session.ctx);
        if (cycle.pull?.written.length !== m.blocks.length) throw new Error(`the pull wrote ${cycle.pull?.written.length} files, expected ${m.blocks.length}`);
      });
      if (withHistory.journal.historyTotals().count !== 2_000) throw new Error('the history changed during the pulls');
      // Retention alone (what each cycle's start costs then).
      const prune: number[] = [];
      for (let k = 0; k < ROUNDS; k++) {
        const t0 = performance.now();
        if ((await pruneVersions(withHistory.ctx)) !== 0) throw new Error('retention pruned a version that was not due');
        prune.push(performance.now() - t0);
      }
      return [
        {
          name: 'history: pull of 10 remote edits (100 documents × 40 blocks), cycle with history ÷ without',
          measured: Number(r.ratio.toFixed(3)),
          unit: 'ratio',
          target: { op: '<', value: 1.05 },
          note: `two mirrors of one space, one with 2,000 versions kept; median of ${ROUNDS} neighbouring pairs' ratios; medians ${r.on.toFixed(1)} ms with, ${r.off.toFixed(1)} ms without`,
        },
        { name: "history: retention at a cycle's start over 2,000 kept versions, none due, median", measured: Number(median(prune).toFixed(2)), unit: 'ms' },
      ];
    }),
  );
}

function bytesUnder(dir: string, skip?: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (p === skip) continue;
    if (e.isDirectory()) n += bytesUnder(p, skip);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}

async function stateSize(): Promise<Figure[]> {
  const DOCS = 10_000;
  const DAYS = 45;
  const PER_DAY = 100;
  return withMirror('hist-size', { documents: DOCS, blocksPerDocument: 10, folders: 10, seed: 3 }, async (session, _server, root) => {
    const state = path.join(root, '.spacesync');
    const docs = session.journal.listDocuments();
    if (docs.length < DOCS) throw new Error(`${docs.length} documents pulled, expected ${DOCS}`);
    // A daemon's next cycle scans every file and records its stat (the stat cache): weighed with the rest.
    await syncOnce(session.ctx);
    const stats = session.journal.listFileStats().size;
    if (stats < DOCS) throw new Error(`${stats} file stats recorded after a full scan, expected ${DOCS}`);
    session.journal.transaction(() => undefined);
    const before = bytesUnder(state);
    let clock = new Date('2026-01-01T09:00:00Z');
    const ctx = { root, journal: session.journal, now: () => clock, settings: { versions: ON } };
    let pruned = 0;
    for (let day = 0; day < DAYS; day++) {
      clock = new Date(Date.UTC(2026, 0, 1 + day, 9));
      pruned += await pruneVersions(ctx);
      for (let k = 0; k < PER_DAY; k++) {
        const d = docs[(day * PER_DAY + k) % docs.length]!;
        const text = fs.readFileSync(path.join(root, d.path), 'utf8');
        await saveLocalVersion(ctx, { path: d.path, docId: d.id, text, replacement: `${text}edited\n`, cause: 'merge' });
        const base = session.journal.getBaseBlocks(d.id);
        const task = {
          doc: d.id,
          record: d,
          local: null,
          base,
          remote: null,
          decision: {},
          next: {},
          remoteModifiedAt: null,
          settles: [],
          file: {
            changes: {
              edits: [{ id: base[0]!.id, markdown: 'x' }],
              moves: [],
              inserts: [],
              lateMoves: [],
              deletes: [base[1]!.id],
              removedBlocks: 1,
              expected: [],
            },
          },
        } as unknown as DocumentTask;
        recordRemoteHistory(ctx, task, 'PUT /blocks, DELETE /blocks');
      }
      // As each day's cycle ends: the write-ahead log goes into the journal file.
      session.journal.checkpoint();
    }
    session.journal.transaction(() => undefined);
    const mirror = bytesUnder(root, state);
    const after = bytesUnder(state);
    const kept = session.journal.listHistory().length;
    return [
      {
        name: `history: .spacesync/ of a ${DOCS.toLocaleString('en')}-document mirror after ${DAYS} days of ${PER_DAY} documents a day changed on both sides, ÷ the mirror`,
        measured: Number((after / mirror).toFixed(2)),
        unit: 'ratio',
        target: { op: '<', value: 2 },
        note: `${(after / 2 ** 20).toFixed(1)} MiB beside ${(mirror / 2 ** 20).toFixed(1)} MiB of files (${(before / 2 ** 20).toFixed(1)} MiB before any version); ${kept} versions kept, ${pruned} pruned (keepDays 30); the stat cache of ${stats.toLocaleString('en')} files included`,
      },
    ];
  });
}

export default async function historyBench(): Promise<Figure[]> {
  return [...(await pushCost()), ...(await pullCost()), ...(await stateSize())];
}
