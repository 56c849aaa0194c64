// Queries of documents: where each one lives, its dates, its title (the root block's title).
import { stmt, type Db } from './openStore.js';

export type StoredLocation = 'unsorted' | 'templates' | 'trash' | 'folder' | 'daily_notes' | 'inbox';

export interface DocumentRow {
  id: string;
  seq: number;
  location: StoredLocation;
  folder_id: string | null;
  daily_note_date: string | null;
  created_at: number;
  last_modified_at: number;
  trashed_at: number | null;
  title: string;
}

const SELECT = `SELECT d.*, COALESCE(json_extract(b.data, '$.body'), '') AS title
  FROM documents d JOIN blocks b ON b.id = d.id`;

export function getDocument(db: Db, id: string): DocumentRow | undefined {
  return stmt(db, `${SELECT} WHERE d.id = ?`).get(id) as DocumentRow | undefined;
}

/** Every document but the hidden inbox, in creation order. */
export function allDocuments(db: Db): DocumentRow[] {
  return stmt(db, `${SELECT} WHERE d.location != 'inbox' ORDER BY d.seq`).all() as DocumentRow[];
}

export function documentsAt(db: Db, location: StoredLocation): DocumentRow[] {
  return stmt(db, `${SELECT} WHERE d.location = ? ORDER BY d.seq`).all(location) as DocumentRow[];
}

export function documentsInFolders(db: Db, folderIds: readonly string[]): DocumentRow[] {
  if (folderIds.length === 0) return [];
  return db
    .prepare(`${SELECT} WHERE d.location = 'folder' AND d.folder_id IN (${folderIds.map(() => '?').join(',')}) ORDER BY d.seq`)
    .all(...folderIds) as DocumentRow[];
}

/** The live (not trashed) daily note of `date`. */
export function dailyNote(db: Db, date: string): DocumentRow | undefined {
  return stmt(db, `${SELECT} WHERE d.location = 'daily_notes' AND d.daily_note_date = ?`).get(date) as DocumentRow | undefined;
}

export function inboxDocument(db: Db): DocumentRow | undefined {
  return stmt(db, `${SELECT} WHERE d.location = 'inbox'`).get() as DocumentRow | undefined;
}

export interface NewDocumentRow {
  id: string;
  location: StoredLocation;
  folderId: string | null;
  dailyNoteDate: string | null;
  createdAt: number;
  lastModifiedAt: number;
  trashedAt: number | null;
}

/** Inserts the document row; its root block is inserted right after by the caller. */
export function insertDocument(db: Db, d: NewDocumentRow): void {
  const seq = (stmt(db, 'SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM documents').get() as { s: number }).s;
  stmt(
    db,
    `INSERT INTO documents (id, seq, location, folder_id, daily_note_date, created_at, last_modified_at, trashed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(d.id, seq, d.location, d.folderId, d.dailyNoteDate, d.createdAt, d.lastModifiedAt, d.trashedAt);
}

export function setDocumentLocation(db: Db, id: string, location: StoredLocation, folderId: string | null, trashedAt: number | null): void {
  stmt(db, 'UPDATE documents SET location = ?, folder_id = ?, trashed_at = ? WHERE id = ?').run(location, folderId, trashedAt, id);
}

/** Moves `lastModifiedAt` of a document (any of its blocks changed). */
export function touchDocument(db: Db, id: string, now: number): void {
  stmt(db, 'UPDATE documents SET last_modified_at = MAX(last_modified_at, ?) WHERE id = ?').run(now, id);
}

/** Documents directly in each folder, keyed by folder id (user folders) or location. */
export function documentCounts(db: Db): Map<string, number> {
  const rows = stmt(
    db,
    `SELECT CASE WHEN location = 'folder' THEN folder_id ELSE location END AS k, COUNT(*) AS n
    FROM documents GROUP BY k`,
  ).all() as Array<{ k: string; n: number }>;
  return new Map(rows.map((r) => [r.k, r.n]));
}

/** Re-homes the documents of folder `from` (a folder being deleted). */
export function moveFolderDocuments(db: Db, from: string, toLocation: StoredLocation, toFolder: string | null): void {
  stmt(db, "UPDATE documents SET location = ?, folder_id = ? WHERE location = 'folder' AND folder_id = ?").run(toLocation, toFolder, from);
}

/** Ids of documents trashed before `before` (they are purged). */
export function expiredTrash(db: Db, before: number): string[] {
  return (stmt(db, "SELECT id FROM documents WHERE location = 'trash' AND trashed_at < ?").all(before) as Array<{ id: string }>).map((r) => r.id);
}

export function deleteDocument(db: Db, id: string): void {
  stmt(db, 'DELETE FROM documents WHERE id = ?').run(id);
}

// Documents are purged from trash 30 days after they were deleted.
export const TRASH_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export function purgeExpiredTrash(db: Db, now: number): number {
  const ids = expiredTrash(db, now - TRASH_RETENTION_MS);
  for (const id of ids) deleteDocument(db, id);
  return ids.length;
}
