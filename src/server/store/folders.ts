// Queries of user folders (the built-in locations are not rows: see BUILT_IN_FOLDERS).
import { stmt, type Db } from './openStore.js';

export interface FolderRow {
  id: string;
  name: string;
  parent_id: string | null;
  pos: number;
  created_at: number;
}

/** The built-in locations, as `GET /folders` lists them. */
export const BUILT_IN_FOLDERS = [
  { id: 'unsorted', name: 'Unsorted' },
  { id: 'templates', name: 'Templates' },
  { id: 'trash', name: 'Recently Deleted' },
] as const;

export type BuiltInFolderId = (typeof BUILT_IN_FOLDERS)[number]['id'];

export function isBuiltInFolder(id: string): id is BuiltInFolderId {
  return BUILT_IN_FOLDERS.some((f) => f.id === id);
}

export function listFolders(db: Db): FolderRow[] {
  return stmt(db, 'SELECT * FROM folders ORDER BY pos, created_at, id').all() as FolderRow[];
}

export function getFolder(db: Db, id: string): FolderRow | undefined {
  return stmt(db, 'SELECT * FROM folders WHERE id = ?').get(id) as FolderRow | undefined;
}

function nextPos(db: Db, parentId: string | null): number {
  const r = stmt(db, 'SELECT MAX(pos) AS m FROM folders WHERE parent_id IS ?').get(parentId) as { m: number | null };
  return (r.m ?? -1) + 1;
}

export function insertFolder(db: Db, f: { id: string; name: string; parentId: string | null; createdAt: number }): void {
  stmt(db, 'INSERT INTO folders (id, name, parent_id, pos, created_at) VALUES (?, ?, ?, ?, ?)').run(
    f.id,
    f.name,
    f.parentId,
    nextPos(db, f.parentId),
    f.createdAt,
  );
}

/** Re-parents a folder; it goes last among its new siblings. */
export function moveFolder(db: Db, id: string, parentId: string | null): void {
  stmt(db, 'UPDATE folders SET parent_id = ?, pos = ? WHERE id = ?').run(parentId, nextPos(db, parentId), id);
}

export function deleteFolder(db: Db, id: string): void {
  stmt(db, 'DELETE FROM folders WHERE id = ?').run(id);
}

/** The ids of `id` and every folder below it. */
export function folderSubtreeIds(db: Db, id: string): string[] {
  const rows = stmt(
    db,
    `
    WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT f.id FROM folders f JOIN sub ON f.parent_id = sub.id)
    SELECT id FROM sub`,
  ).all(id) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

export function childFolders(db: Db, parentId: string): FolderRow[] {
  return stmt(db, 'SELECT * FROM folders WHERE parent_id = ? ORDER BY pos').all(parentId) as FolderRow[];
}
