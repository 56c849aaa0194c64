import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { APPLICATION_ID, SCHEMA_VERSION, type Migration } from './migrations.js';
import { openJournal } from './openJournal.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-journal-'));
  file = path.join(dir, '.spacesync', 'journal.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const sidecars = (f: string) => fs.readdirSync(path.dirname(f)).filter((n) => n !== path.basename(f));

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isSpacesyncError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('openJournal', () => {
  it('creates the schema in a new file (folder included), in WAL mode, marked as a spacesync journal', () => {
    const j = openJournal(file);
    j.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(tables).toEqual(['conflicts', 'documents', 'file_stats', 'folders', 'history', 'intents', 'listing', 'listing_meta', 'moved_documents', 'state']);
    db.close();
  });

  it("keeps SQLite's page cache at 2 MiB, not the 16 MiB better-sqlite3 is built with (a daemon keeps it resident)", () => {
    const j = openJournal(file);
    const db = (j as unknown as { db: Database.Database }).db;
    expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    j.close();
  });

  it('does not create a missing mirror root', () => {
    const inMissing = path.join(dir, 'gone', '.spacesync', 'journal.db');
    expect(refusal(() => openJournal(inMissing)).code).toBe('mirror_io');
    expect(fs.existsSync(path.join(dir, 'gone'))).toBe(false);
  });

  it('accepts an empty existing file as a new journal', () => {
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '');
    const j = openJournal(file);
    expect(j.counts().documents).toBe(0);
    j.close();
  });

  it('keeps its data across a reopen and does not migrate twice', () => {
    const j = openJournal(file);
    j.upsertDocument({
      id: 'd1',
      path: 'Unsorted/A.md',
      title: 'A',
      location: 'unsorted',
      folderId: null,
      dailyNoteDate: null,
      remoteModifiedAt: '2026-01-01T00:00:00Z',
      createdAt: null,
      fileHash: 'h',
    });
    j.setState('lastCycle', { ok: true });
    j.close();
    const again = openJournal(file);
    expect(again.getDocument('d1')?.path).toBe('Unsorted/A.md');
    expect(again.getState('lastCycle')).toEqual({ ok: true });
    again.close();
  });

  it('refuses a journal from a newer schema with journal_newer and leaves it untouched', () => {
    openJournal(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = sha(file);
    const r = refusal(() => openJournal(file));
    expect(r.code).toBe('journal_newer');
    expect(r.message).toContain(file);
    expect(r.message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(sha(file)).toBe(before);
  });

  it('refuses a garbage file with journal_corrupt, leaving the file byte for byte and adding no sidecar', () => {
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'this is not a database, only some text a user pasted here\n'.repeat(100));
    const before = sha(file);
    const r = refusal(() => openJournal(file));
    expect(r.code).toBe('journal_corrupt');
    expect(r.message).toMatch(/not an SQLite database.*left exactly as it is.*Move it aside/);
    expect(sha(file)).toBe(before);
    expect(sidecars(file)).toEqual([]);
  });

  it('refuses an SQLite database that is not a journal', () => {
    fs.mkdirSync(path.dirname(file));
    const other = new Database(file);
    other.exec('CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)');
    other.close();
    const before = sha(file);
    const r = refusal(() => openJournal(file));
    expect(r.code).toBe('journal_corrupt');
    expect(r.message).toContain('not a spacesync journal');
    expect(sha(file)).toBe(before);
  });

  it('refuses a journal whose pages are damaged, found by the integrity check', () => {
    const j = openJournal(file);
    j.transaction(() => {
      for (let i = 0; i < 300; i++) {
        j.upsertDocument({
          id: `d${i}`,
          path: `Unsorted/${i}.md`,
          title: `Doc ${i} ${'x'.repeat(200)}`,
          location: 'unsorted',
          folderId: null,
          dailyNoteDate: null,
          remoteModifiedAt: null,
          createdAt: null,
          fileHash: null,
        });
      }
    });
    j.close(); // checkpoints the WAL into the file
    const bytes = fs.readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Overwrite the middle pages (b-tree pages of the documents table) with noise.
    for (let p = 2 * pageSize; p < Math.min(bytes.length, 12 * pageSize); p++) bytes[p] = (p * 7919) & 0xff;
    fs.writeFileSync(file, bytes);
    const before = sha(file);
    const r = refusal(() => openJournal(file));
    expect(r.code).toBe('journal_corrupt');
    expect(sha(file)).toBe(before);
  });

  it('keeps a pending intent through a kill -9 of the process that wrote it', async () => {
    const script = `
      import { openJournal } from ${JSON.stringify(path.resolve('src/journal/openJournal.ts'))};
      const j = openJournal(${JSON.stringify(file)});
      const id = j.addIntent({ docId: 'd1', op: 'putBlocks', payload: { blocks: ['b1'] } });
      j.addIntent({ docId: 'd1', op: 'cleared', payload: {} });
      j.clearIntent(id + 1);
      process.stdout.write('written\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('written')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const j = openJournal(file);
    expect(j.pendingIntents().map((i) => ({ docId: i.docId, op: i.op, payload: i.payload }))).toEqual([
      { docId: 'd1', op: 'putBlocks', payload: { blocks: ['b1'] } },
    ]);
    j.close();
  });
});

describe('migrations', () => {
  const v1: Migration = {
    version: 1,
    up: (db) => {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.exec('CREATE TABLE a (x INTEGER)');
    },
  };
  const v2: Migration = { version: 2, up: (db) => db.exec('ALTER TABLE a ADD COLUMN y TEXT') };
  const version = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true });
    } finally {
      db.close();
    }
  };

  it('applies the missing steps in order, one version at a time', () => {
    openJournal(file, { migrations: [v1] }).close();
    expect(version()).toBe(1);
    openJournal(file, { migrations: [v2, v1] }).close();
    expect(version()).toBe(2);
    const db = new Database(file, { readonly: true });
    expect((db.prepare('PRAGMA table_info(a)').all() as Array<{ name: string }>).map((c) => c.name)).toEqual(['x', 'y']);
    db.close();
  });

  it('rolls a failing step back whole and keeps the previous version', () => {
    openJournal(file, { migrations: [v1] }).close();
    const broken: Migration = {
      version: 2,
      up: (db) => {
        db.exec('CREATE TABLE half (x)');
        throw new Error('step 2 failed');
      },
    };
    expect(() => openJournal(file, { migrations: [v1, broken] })).toThrow('step 2 failed');
    expect(version()).toBe(1);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'half'").get()).toEqual({ n: 0 });
    db.close();
    openJournal(file, { migrations: [v1, v2] }).close();
    expect(version()).toBe(2);
  });
});

describe('opening beside a running daemon', () => {
  it('an up-to-date journal opens while another connection holds the write lock', () => {
    openJournal(file).close();
    const daemon = new Database(file);
    daemon.exec('BEGIN IMMEDIATE');
    try {
      // busy timeout 0: any write lock taken while opening fails at once with SQLITE_BUSY.
      const j = openJournal(file, { busyTimeoutMs: 0 });
      expect(j.listDocuments()).toEqual([]);
      j.close();
    } finally {
      daemon.exec('ROLLBACK');
      daemon.close();
    }
  });
});
