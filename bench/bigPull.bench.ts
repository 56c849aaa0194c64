// A first pull of a large space at the service's pace, as the daemon runs it (`spacesync sync`, its
// own process, the daemon's default budget) against the server in this process with the service's
// limits (100 requests a minute): such a pull takes hours, so what matters is what comes first
// and that nothing waits for it.
// - The newest first: 10,000 documents whose modification times are shuffled against their paths,
//   and a week of daily notes last modified long ago. The 50 most recently modified documents must
//   be files within 60 s of the daemon's start, and the last week's daily notes among the first.
// - Edits never wait for the pull: once 20 files are written, one of them is saved with a new
//   paragraph; the time runs from the save to the answer of the daemon's writing request, which the
//   server's log gives. Target: 5 s (the debounce and one request, which the budget's reserve keeps room for).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateSpace, startServer, type LoggedRequest } from '../src/server/index.js';
import { benchTempDir, type Figure } from './figure.js';
import { adminFetch } from './serverProcess.js';
import { stopDaemon } from './daemonProcess.js';

const DOCUMENTS = 10_000;
const BLOCKS = 10;
const NEWEST = 50;
const NEWEST_WITHIN_S = 60;
const DAILY_NOTES = 7;
/** The save comes once this many files are written. */
const SAVE_AFTER_FILES = 20;
const SAVE_WITHIN_S = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Each document file of the mirror written so far, by the id its front matter names, with when it was first seen. */
class MirrorWatch {
  readonly seen = new Map<string, { path: string; at: number }>();
  private readonly known = new Set<string>();
  constructor(private readonly root: string) {}

  look(now: number): void {
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(this.root, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!e.name.startsWith('.') && !e.name.endsWith('.assets')) walk(rel);
        } else if (e.name.endsWith('.md') && !this.known.has(rel)) {
          const id = /^---\nid: (.+)\n/.exec(fs.readFileSync(path.join(this.root, rel), 'utf8'))?.[1];
          if (id === undefined) continue; // being written, or a task file: looked at again
          this.known.add(rel);
          this.seen.set(id, { path: rel, at: now });
        }
      }
    };
    walk('');
  }
}

export default async function bigPullBench(): Promise<Figure[]> {
  const tmp = benchTempDir('bigPull');
  const root = path.join(tmp, 'mirror');
  const now = Date.now();
  const space = generateSpace({ documents: DOCUMENTS, blocksPerDocument: BLOCKS, folders: 10, seed: 41 });
  const docs = space.documents!;
  // Modification times a minute apart in a shuffled order: the newest are anywhere in the paths.
  const rank = docs.map((_, i) => (i * 7919) % docs.length);
  docs.forEach((d, i) => (d.lastModifiedAt = new Date(now - DAY_MS - rank[i]! * 60_000).toISOString()));
  const days = Array.from({ length: DAILY_NOTES }, (_, i) => ({
    id: `DAY-${i}`,
    title: '',
    dailyNoteDate: isoDay(now - i * DAY_MS),
    // Last modified long ago: only their date brings them first.
    lastModifiedAt: new Date(now - 400 * DAY_MS).toISOString(),
    content: [{ id: `DAY-${i}-B`, markdown: `the day ${i} day(s) ago` }],
  }));
  docs.push(...days);
  const newest = new Set(
    [...docs]
      .filter((d) => !d.id!.startsWith('DAY-'))
      .sort((a, b) => (a.lastModifiedAt! < b.lastModifiedAt! ? 1 : -1))
      .slice(0, NEWEST)
      .map((d) => d.id!),
  );
  const server = await startServer({ seed: space, limits: 'spec', admin: true });
  let daemon: ChildProcess | undefined;
  try {
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify({ link: server.baseUrl, log: { level: 'warn', file: true } }, null, 2));
    await adminFetch(server, '/requests', { method: 'DELETE' });
    const startedAt = Date.now();
    const child = spawn(process.execPath, ['bin/dev.js', 'sync', '--dir', root], { stdio: ['ignore', 'ignore', 'pipe'] });
    daemon = child;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const watch = new MirrorWatch(root);
    let saved: { at: number; path: string; id: string; marker: string } | undefined;
    let newestAt: number | undefined;
    let answeredAt: number | undefined;
    const deadline = startedAt + 3 * NEWEST_WITHIN_S * 1000;
    while ((newestAt === undefined || answeredAt === undefined) && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`spacesync sync exited with ${child.exitCode}: ${stderr.trim()}`);
      await sleep(100);
      watch.look(Date.now() - startedAt);
      if (newestAt === undefined && [...newest].every((id) => watch.seen.has(id))) newestAt = Math.max(...[...newest].map((id) => watch.seen.get(id)!.at));
      if (!saved && watch.seen.size >= SAVE_AFTER_FILES) {
        const [id, first] = [...watch.seen].find(([i]) => !i.startsWith('DAY-'))!;
        const marker = `saved during the first pull ${now}`;
        fs.appendFileSync(path.join(root, first.path), `\n${marker}\n`);
        saved = { at: Date.now(), path: first.path, id, marker };
      }
      if (saved && answeredAt === undefined) {
        const log = ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
        const write = log.find((r) => r.method !== 'GET' && r.path === '/blocks' && r.status === 200 && r.t >= saved!.at);
        if (write) answeredAt = Date.now();
      }
    }
    if (newestAt === undefined || !saved || answeredAt === undefined) {
      throw new Error(
        `after ${Math.round((Date.now() - startedAt) / 1000)} s: ${watch.seen.size} files, ${[...newest].filter((id) => watch.seen.has(id)).length} of the ${NEWEST} newest, the save ${saved ? 'not sent' : 'not made'}`,
      );
    }
    // The edit is in the space (one read, the pull's budget permitting).
    const read = await fetch(`${server.baseUrl}/blocks?id=${encodeURIComponent(saved.id)}`);
    const text = JSON.stringify(await read.json());
    if (!text.includes(saved.marker)) throw new Error(`the paragraph saved in ${saved.path} is not in its document`);
    const log = ((await (await adminFetch(server, '/requests')).json()) as { items: LoggedRequest[] }).items;
    // The pull's order is its reads' (files seen in one look of the mirror tie).
    const dayOf = new Map(days.map((d) => [d.dailyNoteDate, d.id]));
    const reads = log.filter((r) => r.method === 'GET' && r.path === '/blocks').map((r) => String(r.query.id ?? dayOf.get(String(r.query.date)) ?? ''));
    const dayRanks = days.map((d) => reads.indexOf(d.id) + 1 || undefined);
    const writtenBy = (t: number) => [...watch.seen.values()].filter((s) => s.at <= t).length;
    return [
      {
        name: `first pull of ${DOCUMENTS.toLocaleString('en')} documents at the service's limits: the ${NEWEST} most recently modified are files`,
        measured: Math.round(newestAt / 100) / 10,
        unit: 's',
        target: { op: '<=', value: NEWEST_WITHIN_S },
        note: `from the daemon's start; ${writtenBy(newestAt)} files by then, ${log.filter((r) => r.status === 429).length} answers 429; modification times shuffled against the paths`,
      },
      {
        name: `first pull at the service's limits: the last week's ${DAILY_NOTES} daily notes (last modified long ago), the latest place among the documents read`,
        measured: Math.max(...dayRanks.map((r) => r ?? Infinity)),
        unit: 'place',
        target: { op: '<=', value: DAILY_NOTES },
        note: `places ${dayRanks.join(', ')}, today's first`,
      },
      {
        name: `a file saved during the first pull (after ${SAVE_AFTER_FILES} files): save → its writing request answered`,
        measured: Math.round((answeredAt - saved.at) / 100) / 10,
        unit: 's',
        target: { op: '<=', value: SAVE_WITHIN_S },
        note: `${writtenBy(answeredAt - startedAt)} files written by then; the paragraph checked in the space`,
      },
    ];
  } finally {
    if (daemon) await stopDaemon(daemon);
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
