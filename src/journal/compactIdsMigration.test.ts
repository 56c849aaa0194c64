// Migration 7 on a journal written by schema 6: every document, base block and version reads back
// as it was, from 16-byte ids, 6-byte times, version files by their name and block lists in
// format 2; what has another form stays as it was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { hashBlock } from '../core/merge/hashBlock.js';
import { encodeBase, encodeBlocks, BLOCK_DICTIONARY } from './blockCodec.js';
import { packHash, packTime } from './compactValues.js';
import { MIGRATIONS } from './migrations.js';
import { openJournal } from './openJournal.js';
import type { BaseBlock, DocumentInput, HistoryBlock, HistoryInput } from './types.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const D1 = '0005D471-2D2D-4A17-AF2B-B5898D8E41C4';
const F1 = '6F9ADA40-8F61-406B-AE9F-FBC3298800C1';
const SHA = 'b53f8865d974d187f4e95e8d2820c2df955ef95ef5a97d31287602968c8daeab';
const documents: DocumentInput[] = [
  {
    id: D1,
    path: 'Area/Note.md',
    title: 'Note',
    location: 'folder',
    folderId: F1,
    dailyNoteDate: null,
    remoteModifiedAt: '2026-01-02T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    fileHash: SHA,
    syncedAt: '2026-01-03T00:00:00.000Z',
  },
  // Ids of another form (lower case, not a UUID) stay text.
  {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    path: 'Unsorted/Lower.md',
    title: 'Lower',
    location: 'folder',
    folderId: 'folder-7',
    dailyNoteDate: null,
    remoteModifiedAt: null,
    createdAt: null,
    fileHash: null,
    syncedAt: '2026-01-03T00:00:00.000Z',
  },
];
const base: BaseBlock[] = [
  {
    id: '56521320-B1CB-403D-A7EF-D58503EB3EEE',
    parentId: null,
    position: 0,
    level: 0,
    kind: 'block',
    type: 'text',
    markdown: '## Plan — é ✓',
    hash: hashBlock('## Plan — é ✓', 'block'),
  },
  {
    id: '57030616-FB50-4026-ACFB-1DD7E10A8770',
    parentId: null,
    position: 1,
    level: 0,
    kind: 'card',
    type: 'page',
    markdown: 'A card',
    hash: hashBlock('A card', 'card', 'large'),
  },
  {
    id: '7A3D4F10-8F61-406B-AE9F-FBC3298800C1',
    parentId: '57030616-FB50-4026-ACFB-1DD7E10A8770',
    position: 0,
    level: 1,
    kind: 'block',
    type: 'text',
    markdown: '- [ ] inside',
    hash: 'a hash from before',
  },
];
const remoteBlocks: HistoryBlock[] = [
  { id: '56521320-B1CB-403D-A7EF-D58503EB3EEE', parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown: 'was here', change: 'deleted' },
  {
    id: '57030616-FB50-4026-ACFB-1DD7E10A8770',
    parentId: null,
    position: 1,
    level: 0,
    kind: 'card',
    type: 'page',
    markdown: 'Card',
    cardLayout: 'square',
    change: 'edited',
  },
];
const versions: HistoryInput[] = [
  {
    at: '2026-01-04T00:00:00.000Z',
    side: 'local',
    docId: D1,
    path: 'Area/Note.md',
    cause: 'merge',
    request: null,
    versionFile: '.spacesync/versions/Area/Note.md/2026-01-04T00-00-00.000Z.md.gz',
    size: 12,
    blocks: null,
    summary: { added: 1, removed: 0, edited: 2 },
  },
  {
    at: '2026-01-05T00:00:00.000Z',
    side: 'remote',
    docId: D1,
    path: 'Area/Note.md',
    cause: 'push',
    request: 'DELETE /blocks',
    versionFile: null,
    size: 0,
    blocks: remoteBlocks,
    summary: { added: 0, removed: 1, edited: 1 },
  },
  // A version file elsewhere (the document moved since) and a time of another form stay as they were.
  {
    at: '2026-01-06T00:00:00Z',
    side: 'local',
    docId: null,
    path: 'Gone.md',
    cause: 'conflict',
    request: null,
    versionFile: '.spacesync/versions/Old/Gone.md/x.md.gz',
    size: 7,
    blocks: null,
    summary: { added: 0, removed: 0, edited: 0 },
  },
];

it("moves a schema-6 journal's ids, times, version files and block lists into the compact form, every field kept", () => {
  // Written as schema 6 wrote: ids and version times as text, whole version file paths, block lists in format 1 (brotli).
  openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 6) }).close();
  const old = new Database(file);
  const doc =
    old.prepare(`INSERT INTO documents (id, path, title, location, folder_id, daily_note_date, remote_modified_at, created_at, file_hash, synced_at, base_count, base)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const d of documents) {
    const blocks = d.id === D1 ? base : [];
    doc.run(
      d.id,
      d.path,
      d.title,
      d.location,
      d.folderId,
      d.dailyNoteDate,
      packTime(d.remoteModifiedAt),
      packTime(d.createdAt),
      packHash(d.fileHash),
      packTime(d.syncedAt!),
      blocks.length,
      blocks.length ? formatOne(encodeBase(blocks)) : null,
    );
  }
  const history = old.prepare(`INSERT INTO history (at, side, doc_id, path, cause, request, version_file, size, blocks, added, removed, edited)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const v of versions) {
    const blocks = v.blocks === null ? null : formatOne(encodeBlocks(v.blocks));
    history.run(
      v.at,
      v.side,
      v.docId,
      v.path,
      v.cause,
      v.request,
      v.versionFile,
      blocks?.length ?? v.size,
      blocks,
      v.summary.added,
      v.summary.removed,
      v.summary.edited,
    );
  }
  old.close();

  const j = openJournal(file);
  try {
    for (const d of documents) expect(j.getDocument(d.id)).toEqual(d);
    expect(j.getDocumentByPath('Area/Note.md')?.id).toBe(D1);
    expect(j.listDocuments().map((d) => d.id)).toEqual([D1, documents[1]!.id]);
    expect(j.getBaseBlocks(D1)).toEqual(base);
    expect(j.countBaseBlocks(D1)).toBe(3);
    const [v3, v2, v1] = j.listHistory();
    expect(v1).toEqual({ ...versions[0], id: 1 });
    expect(v2).toEqual({ ...versions[1], id: 2, size: encodeBlocks(remoteBlocks).length });
    expect(v3).toEqual({ ...versions[2], id: 3 });
    expect(j.listHistory({ docId: D1 }).map((h) => h.id)).toEqual([2, 1]);
    expect(j.historySizes().map((h) => [h.at, h.versionFile])).toEqual(versions.map((v) => [v.at, v.versionFile]));
    // Written and rewritten through the journal: the same values come back.
    j.upsertDocument({ ...j.getDocument(D1)!, path: 'Area/Moved.md' });
    j.setFileHash(D1, null);
    expect(j.getDocument(D1)).toMatchObject({ path: 'Area/Moved.md', fileHash: null, folderId: F1 });
    j.upsertDocument({ ...documents[0]!, title: 'Renamed' });
    expect(j.getDocument(D1)?.title).toBe('Renamed');
    expect(j.counts().documents).toBe(2);
    expect(j.deleteDocument(D1)).toBe(true);
    expect(j.getDocument(D1)).toBeUndefined();
  } finally {
    j.close();
  }
  const after = new Database(file, { readonly: true });
  expect(after.prepare('SELECT typeof(id) AS i, length(id) AS n, typeof(folder_id) AS f FROM documents').all()).toEqual([{ i: 'text', n: 36, f: 'text' }]);
  expect(
    after
      .prepare(
        'SELECT id, typeof(at) AS a, length(doc_id) AS d, version_file AS v, CASE WHEN blocks IS NULL THEN NULL ELSE hex(substr(blocks, 1, 1)) END AS f FROM history ORDER BY id',
      )
      .all(),
  ).toEqual([
    { id: 1, a: 'blob', d: 16, v: '2026-01-04T00-00-00.000Z.md.gz', f: null },
    { id: 2, a: 'blob', d: 16, v: null, f: '02' },
    { id: 3, a: 'text', d: null, v: '.spacesync/versions/Old/Gone.md/x.md.gz', f: null },
  ]);
  after.close();
});

/** The same list as blockCodec's format 1 wrote it: brotli instead of deflate over the dictionary. */
function formatOne(data: Buffer): Buffer {
  const start = data[1] === 0 ? 2 : 6 + data.readUInt32BE(2) * 16;
  const json = inflateRawSync(data.subarray(start), { dictionary: BLOCK_DICTIONARY });
  const head = Buffer.from(data.subarray(0, start));
  head[0] = 1;
  return Buffer.concat([head, brotliCompressSync(json)]);
}

it('gives the pages the smaller rows freed back to the disk once the journal is migrated', () => {
  openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 6) }).close();
  const old = new Database(file);
  const doc = old.prepare(`INSERT INTO documents (id, path, title, location, folder_id, synced_at, base_count, base)
    VALUES (?, ?, 'T', 'folder', ?, '2026-01-03T00:00:00.000Z', 1, ?)`);
  for (let i = 0; i < 400; i++) {
    const id = `${String(i).padStart(8, '0')}-2D2D-4A17-AF2B-B5898D8E41C4`;
    doc.run(id, `Area/Note ${i}.md`, F1, formatOne(encodeBase([{ ...base[0]!, id, markdown: `line ${i} `.repeat(40) }])));
  }
  old.close();
  const before = fs.statSync(file).size;
  openJournal(file).close();
  const after = new Database(file, { readonly: true });
  expect(after.pragma('freelist_count', { simple: true })).toBe(0);
  after.close();
  expect(fs.statSync(file).size).toBeLessThan(before);
});
