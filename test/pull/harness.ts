// The pull tests' harness: the real server in-process on an ephemeral port, a temp mirror root,
// a sync session against it, helpers that change the space over HTTP (as another client would),
// the server's request log, and a check that the mirror says exactly what the space holds.
import { linkAssets } from '../../src/core/media/linkAssets.js';
import { linkDocuments } from '../../src/core/links/linkDocuments.js';
import { targetsOf } from './targetsOf.js';
import { mediaOf } from './mediaOf.js';

export { mediaOf };
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { flattenRemote } from '../../src/core/pull/flattenRemote.js';
import { sameContent } from '../../src/core/merge/blockContent.js';
import { parseFrontMatter } from '../../src/core/files/frontMatter.js';
import { markdownEquals, segmentFile, type Block, type Segment } from '../../src/dialect/index.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startServer, type LoggedRequest, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import { openSyncSession, runPull, type SyncSession } from '../../src/sync/index.js';
import type { SyncSessionOptions } from '../../src/sync/context/openSyncSession.js';
import { frontMatterParts } from '../../src/core/files/fileText.js';

export const START = Date.parse('2026-09-05T10:00:00Z');

export class TestClock {
  constructor(public t = START) {}
  now = (): number => this.t;
}

export interface Space {
  server: RunningServer;
  clock: TestClock;
  /** A request to the space as another client would send it; the clock moves a second first, so lastModifiedAt moves. */
  call(method: string, p: string, body?: unknown, query?: Record<string, string>): Promise<any>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

export async function startSpace(fixture: SpaceFixture, extra: { limits?: 'spec' | 'off'; limitScale?: number } = {}): Promise<Space> {
  const clock = new TestClock();
  const server = await startServer({
    port: 0,
    admin: true,
    seed: fixture,
    limits: extra.limits ?? 'off',
    clock,
    ...(extra.limitScale ? { limitScale: extra.limitScale } : {}),
  });
  const admin = async (method: string, p: string) => {
    const r = await fetch(`${server.adminUrl}${p}`, { method, headers: { authorization: `Bearer ${server.adminToken}` } });
    return r.json() as Promise<any>;
  };
  return {
    server,
    clock,
    async call(method, p, body, query) {
      clock.t += 1000;
      const qs = query ? `?${new URLSearchParams(query).toString()}` : '';
      const r = await fetch(`${server.baseUrl}${p}${qs}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${method} ${p} failed: ${r.status} ${text}`);
      return JSON.parse(text);
    },
    requests: async () => (await admin('GET', '/requests')).items as LoggedRequest[],
    clearRequests: async () => {
      await admin('DELETE', '/requests');
    },
    close: () => server.close(),
  };
}

/** Requests as `METHOD /path?sorted query`, sorted, for comparing with what a cycle should send. */
export function describeRequests(list: readonly LoggedRequest[]): string[] {
  return list
    .map((r) => {
      const q = Object.entries(r.query)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`)
        .join('&');
      return `${r.method} ${r.path}${q ? `?${q}` : ''}`;
    })
    .sort();
}

export function makeRoot(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-pull-')));
}

export interface CapturedLogger {
  logger: Logger;
  lines: string[];
}

export function captureLogger(): CapturedLogger {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

export async function openSession(root: string, space: Space, extra: Partial<SyncSessionOptions> = {}): Promise<SyncSession> {
  return openSyncSession({ root, link: space.server.baseUrl, logger: captureLogger().logger, budget: { scale: 0.01 }, ...extra });
}

export interface PulledMirror {
  space: Space;
  root: string;
  session: SyncSession;
}

async function openMirror(fixture: SpaceFixture): Promise<PulledMirror> {
  const space = await startSpace(fixture);
  const root = makeRoot();
  return { space, root, session: await openSession(root, space) };
}

async function closeMirror(m: PulledMirror): Promise<void> {
  m.session.close();
  await m.space.close();
  fs.rmSync(m.root, { recursive: true, force: true });
}

/**
 * For every test of the file: a space started from `fixture`, a temp mirror, a session, and one
 * cycle (the first pull); handed to `use` before the test, closed and removed after it.
 */
export function usePulledMirror(fixture: SpaceFixture, use: (m: PulledMirror) => void): void {
  let m: PulledMirror | undefined;
  beforeEach(async () => {
    m = await openMirror(fixture);
    await runPull(m.session.ctx);
    use(m);
  });
  afterEach(async () => {
    if (m) await closeMirror(m);
    m = undefined;
  });
}

/** For the whole file: a space started from `fixture`, an empty temp mirror and a session (nothing pulled yet). */
export function useMirror(fixture: SpaceFixture, use: (m: PulledMirror) => void): void {
  let m: PulledMirror | undefined;
  beforeAll(async () => {
    m = await openMirror(fixture);
    use(m);
  });
  afterAll(async () => {
    if (m) await closeMirror(m);
  });
}

/** Every file and directory under the root (not `.spacesync`): path → content (directories: null) and inode/mtime. */
export function readTree(root: string): Map<string, { text: string | null; ino: number; mtimeMs: number }> {
  const out = new Map<string, { text: string | null; ino: number; mtimeMs: number }>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (childRel === '.spacesync') continue;
      const st = fs.statSync(path.join(root, childRel));
      if (e.isDirectory()) {
        out.set(`${childRel}/`, { text: null, ino: st.ino, mtimeMs: st.mtimeMs });
        walk(childRel);
      } else {
        out.set(childRel, { text: fs.readFileSync(path.join(root, childRel), 'utf8'), ino: st.ino, mtimeMs: st.mtimeMs });
      }
    }
  };
  walk('');
  return out;
}

const TASK_FILES = ['Tasks/Inbox.md', 'Tasks/Logbook.md'];

/** A task as a task file writes it, built here from the API's answer (not by the code under test). */
export function taskFileLine(t: { markdown: string; taskInfo: { state: string; scheduleDate?: string; deadlineDate?: string } }): string {
  const mark = t.taskInfo.state === 'done' ? 'x' : t.taskInfo.state === 'canceled' ? '-' : ' ';
  const dates = (t.taskInfo.scheduleDate ? ` ⏳ ${t.taskInfo.scheduleDate}` : '') + (t.taskInfo.deadlineDate ? ` 📅 ${t.taskInfo.deadlineDate}` : '');
  return `- [${mark}] ${t.markdown}${dates}\n`;
}

/** Tasks/Inbox.md is the space's inbox, Tasks/Logbook.md its logbook's inbox tasks, line for line in the service's order. */
export async function expectTaskFilesMatch(root: string, space: Pick<Space, 'call'>): Promise<void> {
  const inbox = (await space.call('GET', '/tasks', undefined, { scope: 'inbox' })).items as any[];
  const logbook = ((await space.call('GET', '/tasks', undefined, { scope: 'logbook' })).items as any[]).filter((t) => t.location?.type === 'inbox');
  const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
  expect(read('Tasks/Inbox.md'), 'Tasks/Inbox.md').toBe(inbox.map(taskFileLine).join(''));
  expect(read('Tasks/Logbook.md'), 'Tasks/Logbook.md').toBe(logbook.map(taskFileLine).join(''));
}

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/**
 * The mirror holds exactly one file per document of the space, each naming its document in its
 * front matter and holding its blocks (compared block by block, canonically; media signatures aside;
 * links between documents relative to the files).
 */
export async function expectMirrorMatches(root: string, space: Space): Promise<Map<string, string>> {
  const listing = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
  const tree = readTree(root);
  const files = [...tree].filter(([p, v]) => v.text !== null && p.endsWith('.md') && !TASK_FILES.includes(p));
  for (const p of TASK_FILES) if (tree.has(p)) await expectTaskFilesMatch(root, space);
  const byId = new Map<string, string>();
  for (const [p, v] of files) {
    const parts = frontMatterParts(v.text!);
    const fm = parseFrontMatter(parts?.inner, p);
    expect(fm.ok, `front matter of ${p}`).toBe(true);
    const id = fm.ok ? fm.id : undefined;
    expect(id, `id in ${p}`).toBeTypeOf('string');
    expect(byId.has(id!), `two files claim ${id}`).toBe(false);
    byId.set(id!, p);
  }
  expect([...byId.keys()].sort()).toEqual(listing.map((d) => d.id).sort());
  // Links between documents show as relative links to the files that name those documents.
  const targets = targetsOf(byId);
  for (const d of listing) {
    const p = byId.get(d.id)!;
    const text = fs.readFileSync(path.join(root, p), 'utf8');
    const root0 = (await space.call('GET', '/blocks', undefined, { id: d.id })) as Block;
    const remote = flattenRemote(linkDocuments(linkAssets(root0, p, mediaOf(root)), p, targets));
    const local = flatten(segmentFile(text).segments);
    expect(
      local.map((s) => s.kind),
      `block kinds of ${p}`,
    ).toEqual(remote.map((r) => r.kind));
    remote.forEach((r, i) => {
      expect(
        sameContent(r.type, local[i]!.markdown, r.markdown, markdownEquals),
        `block ${r.id} of ${p}: ${JSON.stringify(local[i]!.markdown)} vs ${JSON.stringify(r.markdown)}`,
      ).toBe(true);
    });
  }
  return byId;
}
