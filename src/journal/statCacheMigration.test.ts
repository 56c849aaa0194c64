// Migration 6 (the compact stat cache) on a journal written by schema 5: every recorded stat reads
// back as it was, from integers and 32-byte hashes; what does not fit those stays text, unrounded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openJournal } from './openJournal.js';
import type { FileStatRecord } from './types.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const SHA = 'b53f8865d974d187f4e95e8d2820c2df955ef95ef5a97d31287602968c8daeab';
const stats: FileStatRecord[] = [
  // Nanosecond times past 2^53: a double would round them.
  {
    path: 'Inbox/Note.md',
    size: 1234,
    mtimeNs: 1_764_000_000_123_456_789n,
    ctimeNs: 1_764_000_000_987_654_321n,
    ino: 9_007_199_254_740_993n,
    hash: SHA,
    recordedNs: 1_764_000_001_000_000_001n,
  },
  // An inode above 2^63 (unsigned on some file systems) and a hash of another form.
  { path: 'Folder/Über.md', size: 0, mtimeNs: 0n, ctimeNs: 1n, ino: 2n ** 64n - 1n, hash: 'not a sha256', recordedNs: 5n },
];

it("moves a schema-5 journal's file stats into integers and 32-byte hashes, every field kept", () => {
  openJournal(file, { migrations: MIGRATIONS.filter((m) => m.version <= 5) }).close();
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO file_stats (path, size, mtime_ns, ctime_ns, ino, hash, recorded_ns) VALUES (?, ?, ?, ?, ?, ?, ?)');
  for (const f of stats) insert.run(f.path, f.size, String(f.mtimeNs), String(f.ctimeNs), String(f.ino), f.hash, String(f.recordedNs));
  db.close();

  const j = openJournal(file);
  try {
    expect(j.listFileStats()).toEqual(new Map(stats.map((f) => [f.path, f])));
    // Written again through the journal: the same values come back.
    const moved = { ...stats[0]!, mtimeNs: stats[0]!.mtimeNs + 1n };
    j.updateFileStats([moved], ['Folder/Über.md']);
    expect([...j.listFileStats().values()]).toEqual([moved]);
    j.updateFileStats([stats[1]!]);
    expect(j.listFileStats().get('Folder/Über.md')).toEqual(stats[1]);
  } finally {
    j.close();
  }
  const after = new Database(file, { readonly: true });
  expect(
    after
      .prepare(
        'SELECT path, typeof(mtime_ns) AS m, typeof(ctime_ns) AS c, typeof(ino) AS i, typeof(hash) AS h, length(hash) AS n, typeof(recorded_ns) AS r FROM file_stats ORDER BY path',
      )
      .all(),
  ).toEqual([
    { path: 'Folder/Über.md', m: 'integer', c: 'integer', i: 'text', h: 'text', n: 12, r: 'integer' },
    { path: 'Inbox/Note.md', m: 'integer', c: 'integer', i: 'integer', h: 'blob', n: 32, r: 'integer' },
  ]);
  after.close();
});
