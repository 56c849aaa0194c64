// The push and merge scenarios as data: a small space, steps on the files and on the space, one
// full cycle, then what must hold (the writing requests sent, files, documents) and, after every
// scenario, convergence (O2), idempotence (O3: one more cycle writes nothing) and no duplicated blocks.
import { linkAssets } from '../../src/core/media/linkAssets.js';
import { linkDocuments } from '../../src/core/links/linkDocuments.js';
import { targetsOf } from '../pull/targetsOf.js';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { sameContent } from '../../src/core/merge/blockContent.js';
import { flattenRemote } from '../../src/core/pull/flattenRemote.js';
import { parseFrontMatter } from '../../src/core/files/frontMatter.js';
import { markdownEquals, segmentFile, type Block, type Segment } from '../../src/dialect/index.js';
import { isConflictCopy } from '../../src/mirror/index.js';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { frontMatterParts } from '../../src/core/files/fileText.js';
import { syncOnce, type SyncOnceResult } from '../../src/sync/cycle/syncOnce.js';
import { expectTaskFilesMatch, makeRoot, mediaOf, openSession, readTree, startSpace, type Space } from '../pull/harness.js';
import { INBOX_FILE, LOGBOOK_FILE } from '../../src/core/tasks/taskFiles.js';

const isTaskFile = (p: string) => p === INBOX_FILE || p === LOGBOOK_FILE;

export const scenarioSpace: SpaceFixture = {
  version: 1,
  space: { id: 'S-PUSH', name: 'Push', timezone: 'UTC', userId: 'U1' },
  folders: [
    { id: 'F-PROJ', name: 'Projects', createdAt: '2026-01-01T00:00:00Z', folders: [{ id: 'F-SUB', name: 'Sub', createdAt: '2026-01-02T00:00:00Z' }] },
    { id: 'F-HOME', name: 'Home', createdAt: '2026-01-03T00:00:00Z' },
  ],
  documents: [
    {
      id: 'D-NOTE',
      title: 'Note',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'N1', markdown: 'first paragraph' },
        { id: 'N2', markdown: 'second paragraph' },
        { id: 'N3', markdown: 'third paragraph' },
      ],
    },
    {
      id: 'D-PLAN',
      title: 'Plan',
      folderId: 'F-PROJ',
      createdAt: '2026-09-01T09:00:00Z',
      content: [
        { id: 'P1', markdown: '# Plan' },
        { id: 'P2', markdown: '- one' },
        { id: 'P3', markdown: '- two' },
        { id: 'P4', markdown: 'closing words' },
      ],
    },
    { id: 'D-DEEP', title: 'Deep', folderId: 'F-SUB', createdAt: '2026-09-01T10:00:00Z', content: [{ id: 'S1', markdown: 'deep text' }] },
    {
      id: 'D-CHORE',
      title: 'Chores',
      folderId: 'F-HOME',
      createdAt: '2026-09-01T11:00:00Z',
      content: [
        { id: 'C1', markdown: '- [ ] dishes' },
        { id: 'C2', markdown: '- [ ] laundry' },
      ],
    },
    { id: 'D-IDEA', title: 'Ideas', createdAt: '2026-09-01T12:00:00Z', content: [{ id: 'I1', markdown: 'an idea' }] },
    { id: 'D-DAY', title: '', dailyNoteDate: '2026-09-04', createdAt: '2026-09-04T06:00:00Z', content: [{ id: 'Y1', markdown: 'yesterday' }] },
  ],
};

export type LocalStep =
  | { write: string; text: string }
  | { edit: string; from: string; to: string }
  | { remove: string }
  | { move: string; to: string }
  | { mkdir: string }
  | { rmdir: string };

export interface RemoteStep {
  method: string;
  path: string;
  body?: unknown;
}

export interface Scenario {
  name: string;
  /** The space to start from (scenarioSpace when omitted). */
  fixture?: SpaceFixture;
  /** False when the files keep changes the service cannot take (held back): they stay different. */
  converges?: boolean;
  /** Problems the push reports (patterns), when given. */
  problems?: RegExp[];
  local?: LocalStep[];
  remote?: RemoteStep[];
  /** The writing requests of the cycle, in order, as `METHOD /path`. */
  writes?: string[];
  /** Blocks each writing request carries (PUT/POST/DELETE /blocks), in the same order; when given. */
  exitCode?: number;
  /** The exit code of the idle cycle after it: 4 while something the scenario held back stays so. */
  idleExitCode?: number;
  /** Files afterwards: exact text, a pattern, or null when there must be none. */
  files?: Record<string, string | RegExp | null>;
  /** A document's blocks afterwards (markdown in order), by id. */
  documents?: Record<string, string[]>;
  /** Where a document is afterwards: `trash`, `unsorted`, or a folder's name. */
  placed?: Record<string, string>;
  /** Conflict copies written (and recorded). */
  conflicts?: number;
  /** Block ids that must still exist (nobody touched them). */
  keptIds?: string[];
  check?: (w: World, r: SyncOnceResult) => Promise<void> | void;
}

export interface World {
  space: Space;
  root: string;
  session: SyncSession;
  file(p: string): string;
  read(p: string): string;
}

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

export async function openWorld(fixture: SpaceFixture = scenarioSpace): Promise<World> {
  const space = await startSpace(fixture);
  const root = makeRoot();
  const session = await openSession(root, space);
  await runPull(session.ctx);
  return {
    space,
    root,
    session,
    file: (p) => path.join(root, p),
    read: (p) => fs.readFileSync(path.join(root, p), 'utf8'),
  };
}

export async function closeWorld(w: World): Promise<void> {
  w.session.close();
  await w.space.close();
  fs.rmSync(w.root, { recursive: true, force: true });
}

export function applyLocal(w: World, steps: readonly LocalStep[]): void {
  for (const s of steps) {
    if ('write' in s) {
      fs.mkdirSync(path.dirname(w.file(s.write)), { recursive: true });
      fs.writeFileSync(w.file(s.write), s.text);
    } else if ('edit' in s) {
      const text = w.read(s.edit);
      if (!text.includes(s.from)) throw new Error(`${s.edit} does not contain ${JSON.stringify(s.from)}`);
      fs.writeFileSync(w.file(s.edit), text.replace(s.from, s.to));
    } else if ('remove' in s) fs.rmSync(w.file(s.remove));
    else if ('move' in s) {
      fs.mkdirSync(path.dirname(w.file(s.to)), { recursive: true });
      fs.renameSync(w.file(s.move), w.file(s.to));
    } else if ('mkdir' in s) fs.mkdirSync(w.file(s.mkdir), { recursive: true });
    else fs.rmSync(w.file(s.rmdir), { recursive: true });
  }
}

export async function applyRemote(w: World, steps: readonly RemoteStep[]): Promise<void> {
  for (const s of steps) await w.space.call(s.method, s.path, s.body);
}

export const writesOf = async (space: Space) => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

/** The document's blocks as the service holds them. */
export async function remoteBlocks(space: Space, id: string) {
  return flattenRemote((await space.call('GET', '/blocks', undefined, { id })) as Block);
}

/** O2: one file per document (conflict copies aside), each saying exactly what the service holds; no block twice. */
export async function expectConverged(w: World): Promise<void> {
  const listing = (await w.space.call('GET', '/documents')).items as Array<{ id: string }>;
  const tree = readTree(w.root);
  const files = [...tree].filter(([p, v]) => v.text !== null && p.endsWith('.md') && !isConflictCopy(p) && !isTaskFile(p));
  if (tree.has(INBOX_FILE)) await expectTaskFilesMatch(w.root, w.space);
  const byId = new Map<string, string>();
  for (const [p, v] of files) {
    const fm = parseFrontMatter(frontMatterParts(v.text!)?.inner, p);
    const id = fm.ok ? fm.id : undefined;
    expect(id, `id in ${p}`).toBeTypeOf('string');
    expect(byId.has(id!), `two files claim ${id}: ${byId.get(id!)} and ${p}`).toBe(false);
    byId.set(id!, p);
  }
  expect([...byId.keys()].sort()).toEqual(listing.map((d) => d.id).sort());
  for (const d of listing) {
    const p = byId.get(d.id)!;
    const remote = flattenRemote(
      linkDocuments(linkAssets((await w.space.call('GET', '/blocks', undefined, { id: d.id })) as Block, p, mediaOf(w.root)), p, targetsOf(byId)),
    );
    const local = flatten(segmentFile(w.read(p)).segments);
    expect(
      local.map((s) => s.markdown),
      `blocks of ${p}`,
    ).toHaveLength(remote.length);
    remote.forEach((r, i) => expect(sameContent(r.type, local[i]!.markdown, r.markdown, markdownEquals), `block ${i} of ${p}`).toBe(true));
    const texts = remote.filter((r) => r.markdown !== '' && r.kind === 'block').map((r) => r.markdown);
    expect(new Set(texts).size, `a block twice in ${p}`).toBe(texts.length);
  }
}

/** O3: another cycle sends no writing request and rewrites no file (it ends with `exitCode`: 4 while something stays held back). */
export async function expectIdle(w: World, exitCode = 0): Promise<void> {
  const before = readTree(w.root);
  await w.space.clearRequests();
  const r = await syncOnce(w.session.ctx);
  expect(r.exitCode).toBe(exitCode);
  expect(await writesOf(w.space)).toEqual([]);
  const after = readTree(w.root);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [p, v] of after) {
    const b = before.get(p)!;
    expect({ p, text: v.text, ino: v.ino, mtimeMs: v.mtimeMs }).toEqual({ p, text: b.text, ino: b.ino, mtimeMs: b.mtimeMs });
  }
}

export async function runScenario(s: Scenario): Promise<void> {
  const w = await openWorld(s.fixture);
  try {
    applyLocal(w, s.local ?? []);
    await applyRemote(w, s.remote ?? []);
    await w.space.clearRequests();
    const r = await syncOnce(w.session.ctx);
    if (s.writes) expect(await writesOf(w.space)).toEqual(s.writes);
    expect(r.exitCode).toBe(s.exitCode ?? 0);
    for (const [p, want] of Object.entries(s.files ?? {})) {
      if (want === null) expect(fs.existsSync(w.file(p)), `${p} exists`).toBe(false);
      else if (typeof want === 'string') expect(w.read(p)).toBe(want);
      else expect(w.read(p)).toMatch(want);
    }
    for (const [id, blocks] of Object.entries(s.documents ?? {})) {
      expect((await remoteBlocks(w.space, id)).map((b) => b.markdown)).toEqual(blocks);
    }
    if (s.placed) {
      const folders = (await w.space.call('GET', '/folders')).items as Array<{ id: string; name: string; folders?: unknown[] }>;
      const names = new Map<string, string>();
      const walk = (list: Array<{ id: string; name: string; folders?: unknown[] }>) =>
        list.forEach((f) => {
          names.set(f.id, f.name);
          walk((f.folders ?? []) as typeof list);
        });
      walk(folders);
      for (const [id, where] of Object.entries(s.placed)) {
        const found: string[] = [];
        for (const loc of ['unsorted', 'templates', 'trash']) {
          if (((await w.space.call('GET', '/documents', undefined, { location: loc })).items as Array<{ id: string }>).some((d) => d.id === id))
            found.push(loc);
        }
        for (const [fid, name] of names) {
          if (['unsorted', 'templates', 'trash'].includes(fid)) continue;
          if (((await w.space.call('GET', '/documents', undefined, { folderId: fid })).items as Array<{ id: string }>).some((d) => d.id === id))
            found.push(name);
        }
        expect(found, `where ${id} is`).toContain(where);
      }
    }
    const copies = [...readTree(w.root).keys()].filter((p) => isConflictCopy(p));
    expect(copies.length, 'conflict copies').toBe(s.conflicts ?? 0);
    expect(w.session.journal.listConflicts().length).toBe(s.conflicts ?? 0);
    for (const id of s.keptIds ?? []) {
      const found = await w.space.call('GET', '/blocks', undefined, { id, maxDepth: '0' }).then(
        () => true,
        () => false,
      );
      expect(found, `block ${id} kept`).toBe(true);
    }
    if (s.problems) {
      // What the cycle says it did not send (the blocks' push and the tables').
      const messages = r.report.problems.filter((p) => /^(unsent|table):/.test(p.key)).map((p) => p.message);
      expect(messages).toHaveLength(s.problems.length);
      s.problems.forEach((re, i) => expect(messages[i]).toMatch(re));
    }
    await s.check?.(w, r);
    if (s.converges !== false) await expectConverged(w);
    expect(w.session.journal.pendingIntents()).toEqual([]);
    await expectIdle(w, s.idleExitCode ?? 0);
  } finally {
    await closeWorld(w);
  }
}
