// Migration 10: a document going to the trash is noted in the history with the path its file had,
// in the write that records it there; documents already in the trash when the journal is migrated
// get their note from the moves not yet relinked, else from the former paths the links remember.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openJournal } from './openJournal.js';
import type { DocumentInput } from './types.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const doc = (id: string, p: string, over: Partial<DocumentInput> = {}): DocumentInput => ({
  id,
  path: p,
  title: id,
  location: 'unsorted',
  folderId: null,
  dailyNoteDate: null,
  remoteModifiedAt: null,
  createdAt: null,
  fileHash: 'h',
  ...over,
});
const trash = { location: 'trash' as const, folderId: null };
const notes = (j: ReturnType<typeof openJournal>) =>
  j
    .listHistory()
    .filter((h) => h.cause === 'trash')
    .map((h) => ({ docId: h.docId, path: h.path, side: h.side, removed: h.summary.removed }));

it('notes every document going to the trash, whichever write takes it there, with the path it had', () => {
  const j = openJournal(':memory:', { now: () => new Date('2026-11-01T10:00:00.000Z') });
  try {
    j.upsertDocument(doc('D1', 'Personal/Books.md', { location: 'folder', folderId: 'F1' }));
    j.replaceBaseBlocks('D1', [{ id: 'B1', parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown: 'one', hash: 'x' }]);
    j.upsertDocument(doc('D2', 'Unsorted/Idea.md'));
    expect(j.historyTotals().count).toBe(0);
    j.upsertDocument(doc('D1', 'Trash/Books.md', trash));
    // Written in the trash again (a pull of it), and a new record made in the trash: no new note.
    j.upsertDocument(doc('D1', 'Trash/Books.md', trash));
    j.upsertDocument(doc('D3', 'Trash/Old.md', trash));
    j.upsertDocument(doc('D2', 'Trash/Idea.md', trash));
    expect(notes(j)).toEqual([
      { docId: 'D2', path: 'Unsorted/Idea.md', side: 'remote', removed: 0 },
      { docId: 'D1', path: 'Personal/Books.md', side: 'remote', removed: 1 },
    ]);
    expect(j.listHistory({ path: 'Personal/Books.md' })[0]?.at).toBe('2026-11-01T10:00:00.000Z');
    // The totals retention reads count the notes at once.
    expect(j.historyTotals().count).toBe(2);
  } finally {
    j.close();
  }
});

it('notes the documents a schema-9 journal holds in the trash, from the moves not yet relinked, else the former paths', () => {
  const old = openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 9) });
  old.upsertDocument(doc('D1', 'Personal/Books.md', { location: 'folder', folderId: 'F1' }));
  old.upsertDocument(doc('D1', 'Trash/Books.md', trash));
  old.upsertDocument(doc('D2', 'Trash/Idea.md', trash));
  old.upsertDocument(doc('D3', 'Trash/Unknown.md', trash));
  old.upsertDocument(doc('D4', 'Work/Kept.md', { location: 'folder', folderId: 'F2' }));
  old.setState('links.formerPaths', { 'Unsorted/Idea.md': 'Trash/Idea.md', 'Trash/Unknown (1).md': 'Trash/Unknown.md' });
  expect(old.listHistory()).toEqual([]);
  old.close();

  const j = openJournal(file);
  try {
    expect(notes(j).sort((a, b) => a.docId!.localeCompare(b.docId!))).toEqual([
      { docId: 'D1', path: 'Personal/Books.md', side: 'remote', removed: 0 },
      { docId: 'D2', path: 'Unsorted/Idea.md', side: 'remote', removed: 0 },
    ]);
  } finally {
    j.close();
  }
});
