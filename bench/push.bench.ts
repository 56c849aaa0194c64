// The push: what a one-block edit in a 1,000-block document costs (requests, blocks written, beside
// what a rewrite of the whole document would write), how long a save takes to reach the service
// through the daemon (watcher debounce included, limits off), and how long the decisions take for
// one file of 10,000 blocks with 1 and with 100 scattered changes (diff + merge + plan, as the
// push runs them, and with the file's text cut into blocks first). The server runs in its own process.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { flattenRemote } from '../src/core/pull/flattenRemote.js';
import { hashBlock } from '../src/core/merge/hashBlock.js';
import { planSync } from '../src/core/push/plan.js';
import type { BaseBlock } from '../src/core/types.js';
import { renderFileBody, type Block } from '../src/dialect/index.js';
import { createLogger } from '../src/log.js';
import { generateSpace, type LoggedRequest } from '../src/server/index.js';
import { openSyncSession, pushLocal, runDaemon, syncOnce } from '../src/sync/index.js';
import { mergeFile } from '../src/core/merge/mergeFile.js';
import { parseLocalDocument } from '../src/sync/documents/push/readLocalDocument.js';
import { benchTempDir, type Figure } from './figure.js';
import { adminFetch, startServerProcess } from './serverProcess.js';

const BLOCKS = 1_000;
const SAVES = 15;
const DEBOUNCE_MS = 300;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** Replaces the first occurrence of the `n`-th paragraph's text (a plain text line) with a new one. */
function editParagraph(text: string, n: number, tag: string): string {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^[a-z][a-z ]+ \d+ with \*\*bold\*\*/.test(l) && seen++ === n) {
      lines[i] = `${l} ${tag}`;
      return lines.join('\n');
    }
  }
  throw new Error('no paragraph to edit');
}

async function requestCosts(): Promise<Figure[]> {
  const tmp = benchTempDir('push');
  const fixtureFile = path.join(tmp, 'space.json');
  fs.writeFileSync(fixtureFile, JSON.stringify(generateSpace({ documents: 1, blocksPerDocument: BLOCKS, folders: 0, seed: 5 })));
  const root = path.join(tmp, 'mirror');
  fs.mkdirSync(root);
  const server = await startServerProcess(fixtureFile, ['--limits', 'off']);
  const requests = async () => ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
  const clear = () => adminFetch(server, '/requests', { method: 'DELETE' });
  const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const session = await openSyncSession({ root, link: server.link, logger: silent });
  try {
    await syncOnce(session.ctx);
    const [doc] = session.journal.listDocuments();
    const file = path.join(root, doc!.path);
    const blocks = session.journal.countBaseBlocks(doc!.id);

    // One edit, pushed as the daemon pushes a save (the listing is older than a few seconds: read again).
    fs.writeFileSync(file, editParagraph(fs.readFileSync(file, 'utf8'), 10, 'edited'));
    session.journal.replaceListing(new Date(0).toISOString(), []);
    await clear();
    await pushLocal(session.ctx, { paths: [doc!.path] });
    const log = await requests();
    const writes = log.filter((r) => r.method !== 'GET');
    const written = writes.reduce((n, r) => n + r.blocksCharged, 0);

    // Save → service through the daemon: from the file's write to the service's answer to the PUT.
    const daemon = runDaemon({ ctx: session.ctx, pollMinMs: 600_000, pollMaxMs: 600_000, debounceMs: DEBOUNCE_MS });
    await daemon.ready;
    const latencies: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      await clear();
      const t0 = performance.now();
      fs.writeFileSync(file, editParagraph(fs.readFileSync(file, 'utf8'), 20 + i, `save ${i}`));
      for (;;) {
        await new Promise((r) => setTimeout(r, 5));
        if ((await requests()).some((r) => r.method === 'PUT' && r.path === '/blocks' && r.status === 200)) break;
      }
      latencies.push(performance.now() - t0);
      // The next save waits for this one to be recorded.
      const target = fs.readFileSync(file, 'utf8');
      while (session.journal.getDocument(doc!.id)!.fileHash === null || !target.includes(`save ${i}`)) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, DEBOUNCE_MS));
    }
    await daemon.stop();
    return [
      { name: `one-block edit in a ${blocks}-block document: writing requests`, measured: writes.length, unit: 'requests', target: { op: '<=', value: 1 } },
      {
        name: 'one-block edit: all requests (the listing included)',
        measured: log.length,
        unit: 'requests',
        target: { op: '<=', value: 2 },
        note: log.map((r) => `${r.method} ${r.path}`).join(', '),
      },
      {
        name: 'one-block edit: blocks written',
        measured: written,
        unit: 'blocks',
        target: { op: '<=', value: 1 },
        note: `a rewrite of the whole document would write ${blocks} blocks (and delete as many)`,
      },
      {
        name: `save → service through the daemon, p50 of ${SAVES} (debounce ${DEBOUNCE_MS} ms, limits off)`,
        measured: Math.round(percentile(latencies, 0.5)),
        unit: 'ms',
        target: { op: '<', value: 1000 },
      },
      { name: 'save → service through the daemon, p90', measured: Math.round(percentile(latencies, 0.9)), unit: 'ms' },
    ];
  } finally {
    session.close();
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** A 10,000-block document as the service would send it (every common block kind). */
function bigDocument(): { root: Block; base: BaseBlock[]; text: string } {
  const fixture = generateSpace({ documents: 1, blocksPerDocument: 10_000, folders: 0, seed: 9 });
  const content = fixture
    .documents![0]!.content!.filter((b) => typeof b.markdown === 'string')
    .map((b, i): Block => ({ id: b.id ?? `B${i}`, type: 'text', markdown: b.markdown! }));
  const root: Block = { id: 'DOC', type: 'page', markdown: 'Big', content };
  // One object shape, as the journal builds base blocks: spread copies would each get a hidden
  // class of their own, and the figure would measure property lookups instead of the decisions.
  const base = flattenRemote(root).map((b): BaseBlock => ({
    id: b.id,
    parentId: b.parentId,
    position: b.position,
    level: b.level,
    kind: b.kind,
    type: b.type,
    markdown: b.markdown,
    hash: hashBlock(b.markdown, b.kind),
  }));
  return { root, base, text: `---\nid: DOC\n---\n${renderFileBody(content)}` };
}

function scattered(text: string, changes: number): string {
  let out = text;
  const total = out.split('\n').filter((l) => /^[a-z][a-z ]+ \d+ with \*\*bold\*\*/.test(l)).length;
  for (let k = 0; k < changes; k++) out = editParagraph(out, Math.floor((k * total) / changes), `(edit ${k})`);
  return out;
}

function median(run: () => void, times = 15): number {
  for (let i = 0; i < 3; i++) run();
  const t: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    t.push(performance.now() - t0);
  }
  return percentile(t, 0.5);
}

function decisionTimes(): Figure[] {
  const { base, text } = bigDocument();
  const figures: Figure[] = [];
  for (const changes of [1, 100]) {
    const edited = scattered(text, changes);
    const local = parseLocalDocument('Big.md', edited, 'x');
    let requests = 0;
    const decide = () => {
      const m = mergeFile(base, local);
      requests = planSync({ documents: [{ doc: 'DOC', name: 'Big.md', changes: m.changes }] }).length;
    };
    figures.push({
      name: `diff + merge + plan of a ${base.length}-block file, ${changes} scattered change${changes === 1 ? '' : 's'}, median`,
      measured: Number(median(decide).toFixed(1)),
      unit: 'ms',
      target: { op: '<', value: 20 },
      note: `${requests} request${requests === 1 ? '' : 's'} planned`,
    });
    figures.push({
      name: `the same with the file's text cut into blocks first, ${changes} change${changes === 1 ? '' : 's'}, median`,
      measured: Number(median(() => mergeFile(base, parseLocalDocument('Big.md', edited, 'x'))).toFixed(1)),
      unit: 'ms',
    });
  }
  return figures;
}

export default async function pushBench(): Promise<Figure[]> {
  return [...(await requestCosts()), ...decisionTimes()];
}
