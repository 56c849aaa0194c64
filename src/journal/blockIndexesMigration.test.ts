// Migration 9 on a journal written by schema 8: the block indexes are computed again from every
// base, so a drawing block (media now) and a link to a block inside a document (an index of its
// own now) are found without waiting for their document to change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openJournal } from './openJournal.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('indexes the drawings and the links to blocks of a schema-8 journal, and drops an index that lists nothing', () => {
  const old = openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 8) });
  old.upsertDocument({
    id: 'D1',
    path: 'Notes.md',
    title: 'Notes',
    location: 'unsorted',
    folderId: null,
    dailyNoteDate: null,
    remoteModifiedAt: null,
    createdAt: null,
    fileHash: 'h',
  });
  old.replaceBaseBlocks('D1', [
    { id: 'B1', parentId: null, position: 0, level: 0, kind: 'block', type: 'drawing', markdown: '![Image](https://x/a.png)', hash: 'a' },
    { id: 'B2', parentId: null, position: 1, level: 0, kind: 'block', type: 'text', markdown: 'see [there](block://B9)', hash: 'b' },
  ]);
  old.close();
  // What schema 8 knew: no drawing among the media, no index of links to blocks; and a stale entry.
  const db = new Database(file);
  db.prepare("DELETE FROM state WHERE key LIKE 'media-of:%' OR key LIKE 'anchor-links-of:%'").run();
  db.prepare("INSERT INTO state (key, value) VALUES ('whiteboards-of:D1', '[\"W0\"]')").run();
  db.close();

  const j = openJournal(file);
  try {
    expect(j.documentsWithMedia()).toEqual(new Map([['D1', ['B1']]]));
    expect(j.getState('anchor-links-of:D1')).toEqual(['B2']);
    expect(j.documentsWithWhiteboards()).toEqual(new Map());
  } finally {
    j.close();
  }
});
