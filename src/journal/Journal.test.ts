import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from './Journal.js';
import { openJournal } from './openJournal.js';
import type { BaseBlock, DocumentInput } from './types.js';

let j: Journal;
let clock: Date;
beforeEach(() => {
  clock = new Date('2026-11-21T10:00:00.000Z');
  j = openJournal(':memory:', { now: () => clock });
});
afterEach(() => j.close());

const doc = (id: string, over: Partial<DocumentInput> = {}): DocumentInput => ({
  id,
  path: `Unsorted/${id}.md`,
  title: id,
  location: 'unsorted',
  folderId: null,
  dailyNoteDate: null,
  remoteModifiedAt: null,
  createdAt: null,
  fileHash: null,
  ...over,
});
const block = (id: string, parentId: string | null, position: number, over: Partial<BaseBlock> = {}): BaseBlock => ({
  id,
  parentId,
  position,
  level: 0,
  kind: 'block',
  type: 'text',
  markdown: `text ${id}`,
  hash: `h-${id}`,
  ...over,
});

describe('documents', () => {
  it('records, finds by id and by path, updates and lists by path', () => {
    j.upsertDocument(doc('b', { path: 'Projects/B.md', location: 'folder', folderId: 'f1', remoteModifiedAt: '2026-01-02T00:00:00Z' }));
    j.upsertDocument(doc('a', { dailyNoteDate: '2026-11-21', location: 'daily_notes', path: 'Daily Notes/2026-11-21.md' }));
    expect(j.getDocument('b')).toEqual({
      id: 'b',
      path: 'Projects/B.md',
      title: 'b',
      location: 'folder',
      folderId: 'f1',
      dailyNoteDate: null,
      remoteModifiedAt: '2026-01-02T00:00:00Z',
      createdAt: null,
      fileHash: null,
      syncedAt: '2026-11-21T10:00:00.000Z',
    });
    expect(j.getDocumentByPath('Daily Notes/2026-11-21.md')?.id).toBe('a');
    expect(j.getDocumentByPath('Nope.md')).toBeUndefined();
    clock = new Date('2026-11-21T11:00:00.000Z');
    j.upsertDocument(doc('b', { title: 'B2', path: 'Projects/B2.md', location: 'folder', folderId: 'f1', fileHash: 'abc' }));
    expect(j.getDocument('b')).toMatchObject({ title: 'B2', path: 'Projects/B2.md', fileHash: 'abc', syncedAt: '2026-11-21T11:00:00.000Z' });
    expect(j.listDocuments().map((d) => d.path)).toEqual(['Daily Notes/2026-11-21.md', 'Projects/B2.md']);
  });

  it('refuses two documents on one path and a folder location without a folder id', () => {
    j.upsertDocument(doc('a', { path: 'X.md' }));
    expect(() => j.upsertDocument(doc('b', { path: 'X.md' }))).toThrow(/UNIQUE/);
    expect(() => j.upsertDocument(doc('c', { location: 'folder', folderId: null }))).toThrow(/CHECK/);
    expect(() => j.upsertDocument(doc('d', { location: 'unsorted', folderId: 'f' }))).toThrow(/CHECK/);
  });

  it('knows which documents hold whiteboards, from their base, until the base or the document goes', () => {
    j.upsertDocument(doc('a'));
    j.upsertDocument(doc('b', { path: 'B.md' }));
    j.replaceBaseBlocks('a', [block('t', null, 0), block('w1', null, 1, { type: 'whiteboard' }), block('w2', null, 2, { type: 'whiteboard' })]);
    j.replaceBaseBlocks('b', [block('t2', null, 0)]);
    expect(j.documentsWithWhiteboards()).toEqual(new Map([['a', ['w1', 'w2']]]));
    j.replaceBaseBlocks('a', [block('t', null, 0), block('w2', null, 1, { type: 'whiteboard' })]);
    expect(j.documentsWithWhiteboards()).toEqual(new Map([['a', ['w2']]]));
    j.replaceBaseBlocks('a', [block('t', null, 0)]);
    expect(j.documentsWithWhiteboards()).toEqual(new Map());
    j.replaceBaseBlocks('b', [block('w3', null, 0, { type: 'whiteboard' })]);
    j.deleteDocument('b');
    expect(j.documentsWithWhiteboards()).toEqual(new Map());
    j.setState('whiteboard:x', { n: 1 });
    j.setState('whiteboardy', 2);
    expect(j.statesWithPrefix('whiteboard:')).toEqual({ x: { n: 1 } });
  });

  it('knows which documents may link blocks inside documents, and which bases it replaced since a generation', () => {
    j.upsertDocument(doc('a'));
    j.upsertDocument(doc('b', { path: 'B.md' }));
    const g0 = j.baseGeneration();
    j.replaceBaseBlocks('a', [
      block('t', null, 0, { markdown: '[x](block://B1) [y](R.md#^b1) [z](R.md)' }),
      block('u', null, 1, { markdown: '[y](<R S.md#^b1>)' }),
    ]);
    j.replaceBaseBlocks('b', [block('t2', null, 0, { markdown: 'no [link](R.md)' })]);
    expect(j.documentsWithAnchorLinks()).toEqual(new Map([['a', ['t', 'u']]]));
    expect(j.basesReplacedSince(g0).sort()).toEqual(['a', 'b']);
    const g1 = j.baseGeneration();
    j.deleteDocument('a');
    expect(j.documentsWithAnchorLinks()).toEqual(new Map());
    expect(j.basesReplacedSince(g1)).toEqual(['a']);
    expect(j.basesReplacedSince(j.baseGeneration())).toEqual([]);
  });

  it('moves a path, sets a file hash, and deletes a document with its base blocks', () => {
    j.upsertDocument(doc('a'));
    j.replaceBaseBlocks('a', [block('b1', null, 0)]);
    j.upsertDocument({ ...doc('a'), path: 'Elsewhere/A.md' });
    expect(j.setFileHash('a', 'f00')).toBe(true);
    expect(j.getDocument('a')).toMatchObject({ path: 'Elsewhere/A.md', fileHash: 'f00' });
    expect(j.setFileHash('missing', 'f00')).toBe(false);
    expect(j.deleteDocument('a')).toBe(true);
    expect(j.getDocument('a')).toBeUndefined();
    expect(j.countBaseBlocks('a')).toBe(0);
    expect(j.deleteDocument('a')).toBe(false);
  });

  it('moves every document and folder under a renamed directory, and nothing that only shares a prefix', () => {
    j.upsertFolder({ id: 'p', name: 'Projects', parentId: null, path: 'Projects', documentCount: 1 });
    j.upsertFolder({ id: 'q', name: 'Q', parentId: 'p', path: 'Projects/Q', documentCount: 1 });
    j.upsertFolder({ id: 'o', name: 'Projects 2', parentId: null, path: 'Projects 2', documentCount: 1 });
    j.upsertDocument(doc('a', { path: 'Projects/A.md', location: 'folder', folderId: 'p' }));
    j.upsertDocument(doc('b', { path: 'Projects/Q/B.md', location: 'folder', folderId: 'q' }));
    j.upsertDocument(doc('c', { path: 'Projects 2/C.md', location: 'folder', folderId: 'o' }));
    j.upsertDocument(doc('d', { path: 'Projects_x.md' }));
    expect(j.movePathPrefix('Projects', 'Work/Active')).toEqual({ documents: 2, folders: 2 });
    expect(j.listDocuments().map((d) => d.path)).toEqual(['Projects 2/C.md', 'Projects_x.md', 'Work/Active/A.md', 'Work/Active/Q/B.md']);
    expect(j.listFolders().map((f) => f.path)).toEqual(['Projects 2', 'Work/Active', 'Work/Active/Q']);
  });

  it('leaves a record whose new path another holds where it was, and moves the others', () => {
    j.upsertDocument(doc('old', { path: 'Beta/Inside.md' }));
    j.upsertDocument(doc('other', { path: 'Beta/Other.md' }));
    j.upsertDocument(doc('new', { path: 'Alpha/Beta/Inside.md' }));
    expect(j.movePathPrefix('Beta', 'Alpha/Beta')).toEqual({ documents: 1, folders: 0 });
    expect(j.listDocuments().map((d) => `${d.id} ${d.path}`)).toEqual(['new Alpha/Beta/Inside.md', 'other Alpha/Beta/Other.md', 'old Beta/Inside.md']);
  });
});

describe('base blocks', () => {
  it('returns blocks in document order with every field', () => {
    j.upsertDocument(doc('a'));
    const blocks = [
      block('c', null, 1, { kind: 'page', type: 'page', markdown: 'Sub page' }),
      block('c1', 'c', 0, { level: 1, markdown: '  - child' }),
      block('r', null, 2, { kind: 'readonly', type: 'collection' }),
      block('f', null, 0, { markdown: '# Title', hash: 'x' }),
    ];
    j.replaceBaseBlocks('a', blocks);
    expect(j.getBaseBlocks('a')).toEqual([blocks[3], blocks[0], blocks[1], blocks[2]]);
    expect(j.countBaseBlocks('a')).toBe(4);
    expect(j.countBaseBlocks()).toBe(4);
  });

  it('replaces a base whole, and keeps the old one when the new one is refused', () => {
    j.upsertDocument(doc('a'));
    j.replaceBaseBlocks('a', [block('x', null, 0), block('y', null, 1)]);
    j.replaceBaseBlocks('a', [block('z', null, 0)]);
    expect(j.getBaseBlocks('a').map((b) => b.id)).toEqual(['z']);
    expect(() => j.replaceBaseBlocks('a', [block('p', null, 0), block('q', 'missing', 0)])).toThrow(/parent missing/);
    expect(() => j.replaceBaseBlocks('a', [block('p', null, 0), { ...block('q', null, 1), kind: 'weird' as 'block' }])).toThrow(/kind "weird"/);
    expect(j.getBaseBlocks('a').map((b) => b.id)).toEqual(['z']);
  });

  it('refuses blocks of a document the journal does not hold', () => {
    expect(() => j.replaceBaseBlocks('ghost', [block('x', null, 0)])).toThrow(/does not hold that document/);
    expect(j.countBaseBlocks()).toBe(0);
  });

  it("keeps one document's blocks apart from another's, even with the same ids", () => {
    j.upsertDocument(doc('a'));
    j.upsertDocument(doc('b'));
    j.replaceBaseBlocks('a', [block('x', null, 0)]);
    j.replaceBaseBlocks('b', [block('x', null, 0, { markdown: 'other' })]);
    expect(j.getBaseBlocks('a')[0]?.markdown).toBe('text x');
    expect(j.getBaseBlocks('b')[0]?.markdown).toBe('other');
  });
});

describe('folders', () => {
  it('records, updates, lists by path and deletes', () => {
    j.upsertFolder({ id: 'f2', name: 'B', parentId: 'f1', path: 'A/B', documentCount: 0 });
    j.upsertFolder({ id: 'f1', name: 'A', parentId: null, path: 'A', documentCount: 3 });
    expect(j.listFolders().map((f) => f.id)).toEqual(['f1', 'f2']);
    j.upsertFolder({ id: 'f1', name: 'A', parentId: null, path: 'A', documentCount: 4 });
    expect(j.getFolder('f1')).toEqual({ id: 'f1', name: 'A', parentId: null, path: 'A', documentCount: 4 });
    expect(j.deleteFolder('f2')).toBe(true);
    expect(j.deleteFolder('f2')).toBe(false);
    expect(j.listFolders().map((f) => f.id)).toEqual(['f1']);
  });
});

describe('the documents read once', () => {
  it("are read again after any write: this connection's, one rolled back, and another connection's (and the file stats and the history's totals too)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
    const file = path.join(dir, 'journal.db');
    const a = openJournal(file, { now: () => clock });
    const b = openJournal(file, { now: () => clock });
    try {
      a.upsertDocument(doc('x'));
      expect(a.listDocuments().map((d) => d.id)).toEqual(['x']);
      expect(Object.isFrozen(a.listDocuments()[0])).toBe(true);
      b.upsertDocument(doc('y'));
      expect(a.listDocuments().map((d) => d.id)).toEqual(['x', 'y']);
      expect(() =>
        a.transaction(() => {
          a.upsertDocument(doc('z'));
          expect(a.listDocuments().map((d) => d.id)).toEqual(['x', 'y', 'z']);
          throw new Error('the enclosing work failed');
        }),
      ).toThrow('the enclosing work failed');
      expect(a.listDocuments().map((d) => d.id)).toEqual(['x', 'y']);
      a.setFileHash('x', 'h1');
      expect(a.listDocuments()[0]!.fileHash).toBe('h1');
      a.movePathPrefix('Unsorted', 'Inbox');
      expect(a.listDocuments().map((d) => d.path)).toEqual(['Inbox/x.md', 'Inbox/y.md']);
      // The stat cache's rows the same way.
      const stat = (p: string, hash: string) => ({ path: p, size: 1, mtimeNs: 1n, ctimeNs: 1n, ino: 1n, hash, recordedNs: 5_000_000_000n });
      a.updateFileStats([stat('Inbox/x.md', 'h1')]);
      expect([...a.listFileStats().values()].map((f) => f.hash)).toEqual(['h1']);
      b.updateFileStats([stat('Inbox/x.md', 'h2')]);
      expect([...a.listFileStats().values()].map((f) => f.hash)).toEqual(['h2']);
      a.updateFileStats([], ['Inbox/x.md']);
      expect(a.listFileStats().size).toBe(0);
      // And the history's totals, which retention weighs at every cycle's start.
      expect(a.historyTotals()).toEqual({ count: 0, bytes: 0, oldestAt: null });
      const version = (at: string, size: number) =>
        ({
          at,
          side: 'local',
          docId: 'x',
          path: 'Inbox/x.md',
          cause: 'merge',
          request: null,
          versionFile: null,
          size,
          blocks: null,
          summary: { added: 0, removed: 0, edited: 1 },
        }) as const;
      const first = a.addHistory(version('2026-09-01T10:00:00.000Z', 100));
      expect(a.historyTotals()).toEqual({ count: 1, bytes: 100, oldestAt: '2026-09-01T10:00:00.000Z' });
      b.addHistory(version('2026-09-02T10:00:00.000Z', 50));
      expect(a.historyTotals()).toEqual({ count: 2, bytes: 150, oldestAt: '2026-09-01T10:00:00.000Z' });
      a.deleteHistory([first]);
      expect(a.historyTotals()).toEqual({ count: 1, bytes: 50, oldestAt: '2026-09-02T10:00:00.000Z' });
    } finally {
      a.close();
      b.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the last listing', () => {
  it('is null before the first one, then replaced whole', () => {
    expect(j.readListing()).toBeNull();
    expect(j.hasListing()).toBe(false);
    j.replaceListing('2026-11-21T10:00:00Z', [
      ['a', { title: 'A', lastModifiedAt: '1' }],
      ['b', { title: 'B', lastModifiedAt: null }],
    ]);
    j.replaceListing('2026-11-21T10:01:00Z', new Map([['b', { title: 'B!', lastModifiedAt: '2' }]]));
    expect(j.readListing()).toEqual({ takenAt: '2026-11-21T10:01:00Z', items: new Map([['b', { title: 'B!', lastModifiedAt: '2' }]]) });
    // Without reading a row per document (a poll asks whether this is the first sync).
    expect(j.hasListing()).toBe(true);
  });

  it('is written again when a transaction around the last replacement rolled back', () => {
    const one = new Map([['a', { title: 'A', lastModifiedAt: '1' }]]);
    const two = new Map([
      ['a', { title: 'A', lastModifiedAt: '1' }],
      ['n', { title: 'New', lastModifiedAt: '2' }],
    ]);
    j.replaceListing('2026-11-21T10:00:00Z', one);
    expect(() =>
      j.transaction(() => {
        j.replaceListing('2026-11-21T10:01:00Z', two);
        throw new Error('the enclosing work failed');
      }),
    ).toThrow('the enclosing work failed');
    expect(j.readListing()?.items).toEqual(one);
    // The same listing again: its rows must reach the file this time.
    j.replaceListing('2026-11-21T10:02:00Z', two);
    expect(j.readListing()).toEqual({ takenAt: '2026-11-21T10:02:00Z', items: two });
  });
});

describe('intents', () => {
  it('lists uncleared intents oldest first, with their payloads', () => {
    const a = j.addIntent({ docId: 'd1', op: 'putBlocks', payload: { ids: ['x'] } });
    const b = j.addIntent({ docId: null, op: 'createDocument', payload: { title: 'New', path: 'Unsorted/New.md' } });
    const c = j.addIntent({ docId: 'd2', op: 'deleteBlocks', payload: ['y'] });
    expect(j.clearIntent(b)).toBe(true);
    expect(j.clearIntent(b)).toBe(false);
    expect(j.pendingIntents()).toEqual([
      { id: a, docId: 'd1', op: 'putBlocks', payload: { ids: ['x'] }, createdAt: '2026-11-21T10:00:00.000Z' },
      { id: c, docId: 'd2', op: 'deleteBlocks', payload: ['y'], createdAt: '2026-11-21T10:00:00.000Z' },
    ]);
  });

  it('never reuses an id, so a late clear cannot remove a newer intent', () => {
    const a = j.addIntent({ docId: 'd', op: 'x', payload: 1 });
    j.clearIntent(a);
    expect(j.addIntent({ docId: 'd', op: 'y', payload: 2 })).toBeGreaterThan(a);
  });

  it('refuses a payload that would not survive as JSON', () => {
    expect(() => j.addIntent({ docId: 'd', op: 'x', payload: undefined })).toThrow(/not JSON/);
    expect(j.pendingIntents()).toEqual([]);
  });

  it('survives closing and reopening the file without a clear', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-intents-'));
    try {
      const file = path.join(dir, 'journal.db');
      const first = openJournal(file);
      first.addIntent({ docId: 'd', op: 'insertBlocks', payload: { after: 'b1' } });
      first.close();
      const second = openJournal(file);
      expect(second.pendingIntents().map((i) => i.op)).toEqual(['insertBlocks']);
      second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('conflicts', () => {
  it('adds, lists open ones, resolves once, and lists all on request', () => {
    const a = j.addConflict({ docId: 'd', path: 'A.md', copyPath: 'A (conflict 2026-11-21 100000).md', details: { blocks: ['b1'] } });
    const b = j.addConflict({ docId: 'e', path: 'B.md', copyPath: 'B (conflict 2026-11-21 100000).md', details: null, createdAt: '2026-11-20T00:00:00Z' });
    expect(j.listConflicts().map((c) => c.id)).toEqual([a, b]);
    expect(j.resolveConflict(a, '2026-11-22T00:00:00Z')).toBe(true);
    expect(j.resolveConflict(a)).toBe(false);
    expect(j.listConflicts().map((c) => c.id)).toEqual([b]);
    expect(j.listConflicts({ includeResolved: true })).toEqual([
      {
        id: a,
        docId: 'd',
        path: 'A.md',
        copyPath: 'A (conflict 2026-11-21 100000).md',
        createdAt: '2026-11-21T10:00:00.000Z',
        resolvedAt: '2026-11-22T00:00:00Z',
        details: { blocks: ['b1'] },
      },
      { id: b, docId: 'e', path: 'B.md', copyPath: 'B (conflict 2026-11-21 100000).md', createdAt: '2026-11-20T00:00:00Z', resolvedAt: null, details: null },
    ]);
    expect(j.getConflict(b)?.path).toBe('B.md');
  });
});

describe('state and counts', () => {
  it('stores JSON values by key, counts, deletes', () => {
    expect(j.getState('lastCycle')).toBeUndefined();
    j.setState('lastCycle', { at: 'now', ok: true });
    j.setState('lastError', 'boom');
    j.setState('pushes', 5);
    expect(j.allState()).toEqual({ lastCycle: { at: 'now', ok: true }, lastError: 'boom', pushes: 5 });
    expect(j.deleteState('lastError')).toBe(true);
    expect(j.getState('lastError')).toBeUndefined();
  });

  it('counts what status shows', () => {
    j.upsertDocument(doc('a'));
    j.replaceBaseBlocks('a', [block('x', null, 0), block('y', null, 1)]);
    j.upsertFolder({ id: 'f', name: 'F', parentId: null, path: 'F', documentCount: 0 });
    j.addIntent({ docId: 'a', op: 'x', payload: {} });
    const c = j.addConflict({ docId: 'a', path: 'a', copyPath: 'b', details: {} });
    j.addConflict({ docId: 'a', path: 'a', copyPath: 'c', details: {} });
    j.resolveConflict(c);
    expect(j.counts()).toEqual({ documents: 1, folders: 1, baseBlocks: 2, pendingIntents: 1, openConflicts: 1 });
  });
});

describe('transactions', () => {
  it('rolls every change back when the function throws', () => {
    j.upsertDocument(doc('a', { title: 'before' }));
    expect(() =>
      j.transaction(() => {
        j.upsertDocument(doc('a', { title: 'after' }));
        j.addIntent({ docId: 'a', op: 'x', payload: {} });
        j.setState('k', 1);
        throw new Error('crash in the middle');
      }),
    ).toThrow('crash in the middle');
    expect(j.getDocument('a')?.title).toBe('before');
    expect(j.pendingIntents()).toEqual([]);
    expect(j.getState('k')).toBeUndefined();
  });

  it("returns the function's value, and a nested failure undoes only the nested part", () => {
    const result = j.transaction(() => {
      j.setState('outer', 1);
      try {
        j.transaction(() => {
          j.setState('inner', 2);
          throw new Error('inner');
        });
      } catch {
        /* the outer transaction goes on */
      }
      return 'done';
    });
    expect(result).toBe('done');
    expect(j.allState()).toEqual({ outer: 1 });
  });

  it('refuses an async function instead of committing half of it', () => {
    expect(() =>
      j.transaction((async () => {
        j.setState('k', 1);
      }) as unknown as () => void),
    ).toThrow(/promise/i);
  });
});
