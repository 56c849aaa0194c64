// Migrations 4 and 5 (the compact journal) on a journal written by schema 3: every base block,
// every version of the history and every file hash read back as they were, from the new storage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hashBlock } from '../core/merge/hashBlock.js';
import { MIGRATIONS } from './migrations.js';
import { openJournal } from './openJournal.js';
import type { BaseBlock, HistoryBlock } from './types.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const D1 = 'C16138B5-E449-4EAD-A340-886FB87E6856';
const SHA = 'b53f8865d974d187f4e95e8d2820c2df955ef95ef5a97d31287602968c8daeab';
const base: BaseBlock[] = [
  {
    id: '56521320-B1CB-403D-A7EF-D58503EB3EEE',
    parentId: null,
    position: 0,
    level: 0,
    kind: 'block',
    type: 'text',
    markdown: '## Title',
    hash: hashBlock('## Title', 'block'),
  },
  {
    id: '6F9ADA40-8F61-406B-AE9F-FBC3298800C1',
    parentId: null,
    position: 1,
    level: 0,
    kind: 'card',
    type: 'page',
    markdown: 'A card',
    hash: hashBlock('A card', 'card', 'large'),
  },
  {
    id: '57030616-FB50-4026-ACFB-1DD7E10A8770',
    parentId: '6F9ADA40-8F61-406B-AE9F-FBC3298800C1',
    position: 0,
    level: 1,
    kind: 'block',
    type: 'text',
    markdown: '- [ ] inside',
    hash: 'a hash from before',
  },
];
const remoteVersion: HistoryBlock[] = [
  { id: 'x1', parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown: 'kept' },
  { id: 'x2', parentId: null, position: 1, level: 0, kind: 'block', type: 'text', markdown: 'gone', change: 'deleted' },
  { id: 'x3', parentId: null, position: 2, level: 0, kind: 'card', type: 'page', markdown: 'Card', cardLayout: 'square', change: 'edited' },
];

it("moves a schema-3 journal's base blocks and history into the compact form, every field kept", () => {
  openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 3) }).close();
  const db = new Database(file);
  db.prepare(
    `INSERT INTO documents (id, path, title, location, folder_id, daily_note_date, remote_modified_at, created_at, file_hash, synced_at)
    VALUES (?, 'Unsorted/Note.md', 'Note', 'unsorted', NULL, NULL, '2026-01-02T00:00:00.000Z', NULL, 'ab', '2026-01-03T00:00:00.000Z')`,
  ).run(D1);
  db.prepare(
    `INSERT INTO documents (id, path, title, location, folder_id, daily_note_date, remote_modified_at, created_at, file_hash, synced_at)
    VALUES ('empty', 'Unsorted/Empty.md', 'Empty', 'unsorted', NULL, NULL, NULL, NULL, ?, '2026-01-03T00:00:00.000Z')`,
  ).run(SHA);
  const insert = db.prepare(
    'INSERT INTO base_blocks (doc_id, seq, id, parent_id, position, level, kind, type, markdown, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  base.forEach((b, seq) => insert.run(D1, seq, b.id, b.parentId, b.position, b.level, b.kind, b.type, b.markdown, b.hash));
  const history = db.prepare(
    'INSERT INTO history (at, side, doc_id, path, cause, request, version_file, size, blocks, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  history.run(
    '2026-01-04T00:00:00.000Z',
    'local',
    D1,
    'Unsorted/Note.md',
    'merge',
    null,
    '.spacesync/versions/Unsorted/Note.md/2026-01-04T00-00-00.000Z.md',
    12,
    null,
    '{"added":1,"removed":0,"edited":2}',
  );
  history.run(
    '2026-01-05T00:00:00.000Z',
    'remote',
    D1,
    'Unsorted/Note.md',
    'push',
    'DELETE /blocks',
    null,
    400,
    JSON.stringify(remoteVersion),
    '{"added":0,"removed":1,"edited":1}',
  );
  db.close();

  const j = openJournal(file);
  try {
    expect(j.getBaseBlocks(D1)).toEqual(base);
    expect(j.getBaseBlocks('empty')).toEqual([]);
    expect(j.countBaseBlocks(D1)).toBe(3);
    expect(j.counts()).toMatchObject({ documents: 2, baseBlocks: 3 });
    expect(j.getDocument(D1)).toMatchObject({
      path: 'Unsorted/Note.md',
      fileHash: 'ab',
      remoteModifiedAt: '2026-01-02T00:00:00.000Z',
      createdAt: null,
      syncedAt: '2026-01-03T00:00:00.000Z',
    });
    expect(j.getDocument('empty')?.fileHash).toBe(SHA);
    expect(j.listDocuments().map((d) => d.fileHash)).toEqual([SHA, 'ab']);
    j.setFileHash(D1, SHA.replace('b', 'c'));
    expect(j.getDocument(D1)?.fileHash).toBe(SHA.replace('b', 'c'));
    const [remote, local] = j.listHistory({ path: 'Unsorted/Note.md' });
    expect(local).toMatchObject({
      id: 1,
      side: 'local',
      versionFile: '.spacesync/versions/Unsorted/Note.md/2026-01-04T00-00-00.000Z.md',
      size: 12,
      blocks: null,
      summary: { added: 1, removed: 0, edited: 2 },
    });
    expect(remote).toMatchObject({ id: 2, side: 'remote', request: 'DELETE /blocks', blocks: remoteVersion, summary: { added: 0, removed: 1, edited: 1 } });
    // The size retention weighs is what the version takes now.
    expect(remote!.size).toBeLessThan(JSON.stringify(remoteVersion).length);
    // Ids go on from where they were.
    expect(j.addHistory({ ...remote!, blocks: [] })).toBe(3);
  } finally {
    j.close();
  }
  const after = new Database(file, { readonly: true });
  const names = after.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
  // A sha256 takes its 32 bytes; a value that is not one stays as it was.
  expect(after.prepare('SELECT path, typeof(file_hash) AS t, length(file_hash) AS n FROM documents ORDER BY path').all()).toEqual([
    { path: 'Unsorted/Empty.md', t: 'blob', n: 32 },
    { path: 'Unsorted/Note.md', t: 'blob', n: 32 },
  ]);
  expect(after.prepare("SELECT typeof(remote_modified_at) AS r, typeof(synced_at) AS s FROM documents WHERE path = 'Unsorted/Note.md'").get()).toEqual({
    r: 'blob',
    s: 'blob',
  });
  after.close();
  expect(names).not.toContain('history_path');
  expect(names).not.toContain('base_blocks');
  expect(names).not.toContain('documents_folder');
});
