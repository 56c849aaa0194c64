// Opens the space's SQLite store: a file that survives restarts (WAL), or, without one, a private
// temporary database that SQLite deletes when it is closed (or the process ends).
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { migrate } from './schema.js';
import { randomUUID } from 'node:crypto';

export type { Db };

/**
 * The page cache of a temporary store: a test space fits in it whole (it is never read back from
 * the file), a large one is paged through it. Not `:memory:`: a space of 50,000 documents takes
 * some 300 MiB of pages, all of which an in-memory store would keep in the server's resident set.
 */
const TEMPORARY_CACHE_KIB = 32 * 1024;

export function openStore(file?: string): Db {
  // An empty name is SQLite's private temporary database on disk, removed when it is closed.
  const db = new Database(file ?? '');
  if (file) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  } else {
    db.pragma(`cache_size = -${TEMPORARY_CACHE_KIB}`);
  }
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

const cache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database. */
export function stmt(db: Db, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) {
    m = new Map();
    cache.set(db, m);
  }
  let s = m.get(sql);
  if (!s) {
    s = db.prepare(sql);
    m.set(sql, s);
  }
  return s;
}

// New ids look like the service's: upper-case UUIDs, opaque to every client.
export function newId(): string {
  return randomUUID().toUpperCase();
}
