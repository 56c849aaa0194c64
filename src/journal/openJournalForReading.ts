// Opens a journal to read it beside a running daemon (WAL: a reader never blocks the writer), for
// the commands that look at a mirror without syncing it (status, conflicts, history).
import Database from 'better-sqlite3';
import { Journal } from './Journal.js';
import { APPLICATION_ID, SCHEMA_VERSION } from './migrations.js';
import { openJournal } from './openJournal.js';

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
