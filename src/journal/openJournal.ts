// Opens the journal: refuses a damaged file or one written by a newer spacesync (never rebuilding
// it silently, never changing it), then switches to WAL and applies pending migrations.
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SpacesyncError } from '../errors.js';
import { Journal } from './Journal.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, migrate, userVersion, type Migration } from './migrations.js';

export interface OpenJournalOptions {
  /** The clock for `syncedAt`, intent and conflict times. */
  now?: () => Date;
  /** How long a write waits for another process's write lock before failing (ms). */
  busyTimeoutMs?: number;
  /** Replaces the schema's migrations (tests of the migration runner only). */
  migrations?: readonly Migration[];
}

/** The write-ahead log's bound: pages between checkpoints, and the size it is cut back to. */
/**
 * SQLite's page cache, in KiB as its pragma takes them (negative): 2 MiB, SQLite's own default, not
 * the 16 MiB better-sqlite3 is built with. The journal is read in whole passes (the integrity check
 * at open, every record at a full cycle) that would fill any cache, and a daemon keeps what it filled
 * resident all day; the file's pages stay in the operating system's cache anyway.
 */
const CACHE_KIB = -2000;
const WAL_PAGES = 256;
const WAL_LIMIT_BYTES = 1024 * 1024;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function corrupt(file: string, reason: string, cause?: unknown): SpacesyncError {
  return new SpacesyncError(
    'journal_corrupt',
    `The journal ${file} cannot be used: ${reason}. It was left exactly as it is. Move it aside (for example to journal.db.broken, to keep it for a bug report) and run spacesync again to start a new journal.`,
    { cause, details: { file, reason } },
  );
}

/** Reads the first bytes without SQLite, so a foreign file is refused before anything opens it for writing. */
function checkHeader(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw corrupt(file, `it cannot be read (${(e as Error).message})`, e);
  }
  if (size === 0) return; // SQLite treats an empty file as an empty database.
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER)) throw corrupt(file, 'it is not an SQLite database');
}

function isSqliteDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

export function openJournal(file: string, opts: OpenJournalOptions = {}): Journal {
  const migrations = opts.migrations ?? MIGRATIONS;
  const latest = opts.migrations ? migrations.reduce((max, m) => Math.max(max, m.version), 0) : SCHEMA_VERSION;
  const inMemory = file === ':memory:';
  if (!inMemory) {
    // Only the journal's own folder is created: a missing mirror root must stay missing.
    try {
      mkdirSync(path.dirname(file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SpacesyncError(
          'mirror_io',
          `Cannot create the journal folder ${path.dirname(file)}: ${(e as Error).message}. Check that the folder above it exists and is writable.`,
          { cause: e, details: { file } },
        );
      }
    }
    checkHeader(file);
  }

  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (e) {
    if (isSqliteDamage(e)) throw corrupt(file, (e as Error).message, e);
    throw new SpacesyncError('mirror_io', `Cannot open the journal ${file}: ${(e as Error).message}. Check that the folder is writable.`, { cause: e });
  }

  try {
    // The cache's size first: the integrity check below reads every page, and a larger cache it
    // filled stays in the process's memory once shrunk (freed to malloc, not to the system).
    db.pragma(`cache_size = ${CACHE_KIB}`);
    // Everything up to the migrations only reads: a refused file stays byte for byte as it was.
    const version = userVersion(db);
    if (version > latest) {
      throw new SpacesyncError(
        'journal_newer',
        `The journal ${file} was written by a newer spacesync (schema version ${version}; this one knows up to ${latest}). It was left untouched. Run the newer spacesync that wrote it, or upgrade this one.`,
        { details: { file, version, supported: latest } },
      );
    }
    const appId = db.pragma('application_id', { simple: true }) as number;
    const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as { n: number }).n;
    if (appId !== APPLICATION_ID && (appId !== 0 || version !== 0 || tables > 0)) {
      throw corrupt(file, 'it is an SQLite database, but not a spacesync journal');
    }
    if (!inMemory) {
      const check = db.pragma('quick_check', { simple: true }) as string;
      if (check !== 'ok') throw corrupt(file, `SQLite's integrity check failed (${check})`);
    }

    db.pragma('journal_mode = WAL');
    // FULL: an intent is on disk before its request leaves, even across a power cut.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    // The write-ahead log stays small: checkpointed every 1 MiB written (not 4), and cut back to
    // 1 MiB after each checkpoint instead of keeping the largest size it ever reached.
    db.pragma(`wal_autocheckpoint = ${WAL_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
    const applied = migrate(db, migrations);
    // Migration 7 rewrites every document's row smaller: VACUUM gives the pages it freed back to the
    // disk. It never waits: with another process reading, the pages stay free for later writes.
    if (!inMemory && version > 0 && applied.includes(7)) vacuumNow(db, opts.busyTimeoutMs ?? 5000);
  } catch (e) {
    db.close();
    if (e instanceof SpacesyncError) throw e;
    if (isSqliteDamage(e)) throw corrupt(file, (e as Error).message, e);
    throw e;
  }
  return new Journal(db, file, opts.now ?? (() => new Date()));
}

function vacuumNow(db: Database.Database, busyTimeoutMs: number): void {
  db.pragma('busy_timeout = 0');
  try {
    db.exec('VACUUM');
  } catch {
    // Busy: another process holds the journal open; nothing is lost, only the space is not returned yet.
  } finally {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}

// Opens a journal to read it beside a running daemon (WAL: a reader never blocks the writer), for
// the commands that look at a mirror without syncing it (status, conflicts, history).
/**
 * A read-only connection when the journal is of this version: opening it the ordinary way checks
 * the schema in a write transaction, which would wait for (and hold up) a daemon's writes. Any
 * other file goes through openJournal, which refuses a damaged or newer one in its own words.
 */
export function openJournalForReading(file: string): Journal {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return openJournal(file);
  }
  try {
    db.pragma('busy_timeout = 5000');
    if (db.pragma('user_version', { simple: true }) === SCHEMA_VERSION && db.pragma('application_id', { simple: true }) === APPLICATION_ID) {
      return new Journal(db, file, () => new Date());
    }
  } catch {
    /* openJournal says what is wrong */
  }
  db.close();
  return openJournal(file);
}
