// Opens the space's SQLite store: in memory by default, or a file (WAL, survives restarts).
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { migrate } from './schema.js';

export type { Db };

export function openStore(file?: string): Db {
  const db = new Database(file ?? ':memory:');
  if (file) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
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
