// The space's own settings (id, name, time zone, the link's user), kept in the meta table.
import { stmt, type Db } from './openStore.js';

export interface SpaceSettings {
  id: string;
  name: string;
  timezone: string;
  /** The user every write through the link is recorded as (createdBy / lastModifiedBy). */
  userId: string;
}

export function readSpace(db: Db): SpaceSettings | undefined {
  const rows = stmt(db, 'SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>;
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const id = m.get('space.id');
  if (id === undefined) return undefined;
  return { id, name: m.get('space.name') ?? '', timezone: m.get('space.timezone') ?? 'UTC', userId: m.get('space.userId') ?? '' };
}

export function writeSpace(db: Db, s: SpaceSettings): void {
  const put = stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  put.run('space.id', s.id);
  put.run('space.name', s.name);
  put.run('space.timezone', s.timezone);
  put.run('space.userId', s.userId);
}

/** The meta key of the secret the space's media URLs are signed with (hex). */
export const MEDIA_SECRET = 'media.secret';

export function readMeta(db: Db, key: string): string | undefined {
  return (stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function writeMeta(db: Db, key: string, value: string): void {
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Empties every table (the schema stays): the start of a reset or a fixture load. */
export function clearSpace(db: Db): void {
  db.exec(`
    DELETE FROM whiteboard_elements; DELETE FROM whiteboards; DELETE FROM collection_views;
    DELETE FROM collections; DELETE FROM reminders; DELETE FROM comments; DELETE FROM blocks;
    DELETE FROM documents; DELETE FROM folders; DELETE FROM asset_chunks; DELETE FROM assets; DELETE FROM meta;
  `);
}
