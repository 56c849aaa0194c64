// For the commands that look at a mirror without syncing it (status, conflicts): the config and the
// journal of DIR, opened beside a running daemon (WAL: a reader never blocks it), never created.
import { existsSync } from 'node:fs';
import { configPath, loadConfig, type Config } from '../config.js';
import { SpacesyncError } from '../errors.js';
import Database from 'better-sqlite3';
import { Journal, openJournal, SCHEMA_VERSION } from '../journal/index.js';
import { APPLICATION_ID } from '../journal/migrations.js';
import { shellQuote } from './init.js';
import { journalPath } from '../stateDir.js';
import { rootKind } from '../mirror/index.js';

export interface MirrorState {
  config: Config;
  root: string;
  /** Undefined when the folder was set up but never synced. */
  journal: Journal | undefined;
  close(): void;
}


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
  } catch { /* openJournal says what is wrong */ }
  db.close();
  return openJournal(file);
}

export function openMirrorState(flags: { dir?: string; config?: string }, opts: { write?: boolean } = {}): MirrorState {
  const config = loadConfig({ flags: { ...(flags.dir !== undefined ? { dir: flags.dir } : {}), ...(flags.config !== undefined ? { config: flags.config } : {}) } });
  const root = config.dir;
  if (rootKind(root) !== 'dir') {
    throw new SpacesyncError('config_missing', `The folder ${root} does not exist (or is not a folder). Pass the mirror folder with --dir, or set one up with \`spacesync init DIR --link URL\`.`);
  }
  const file = journalPath(root);
  const hasJournal = existsSync(file);
  if (!hasJournal && !existsSync(configPath(root)) && flags.config === undefined) {
    throw new SpacesyncError('config_missing', `${root} is not a spacesync folder (it has no .spacesync/ with a config or a journal). Pass the mirror folder with --dir, or set this one up with \`spacesync init ${shellQuote(root)} --link URL\`.`);
  }
  const journal = !hasJournal ? undefined : opts.write ? openJournal(file) : openJournalForReading(file);
  return { config, root, journal, close: () => journal?.close() };
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago". */
export function ago(thenIso: string, now: Date): string {
  const s = Math.round((now.getTime() - Date.parse(thenIso)) / 1000);
  if (!Number.isFinite(s)) return 'at an unknown time';
  if (s < 0) return 'in the future (check the clock)';
  if (s < 5) return 'just now';
  if (s < 90) return `${s} s ago`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min ago`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

/** A local time a person reads: `2026-11-21 09:30:05`. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
