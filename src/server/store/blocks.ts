// Queries of blocks: rows hold the structured fields (JSON) and the derived markdown; the tree
// is parent_id + pos (siblings ordered by pos). A document is its root block's subtree.
import { stmt, type Db } from './openStore.js';

export interface BlockRow {
  id: string;
  doc_id: string;
  parent_id: string | null;
  pos: number;
  type: string;
  data: string;
  markdown: string;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
}

export function getBlock(db: Db, id: string): BlockRow | undefined {
  return stmt(db, 'SELECT * FROM blocks WHERE id = ?').get(id) as BlockRow | undefined;
}

/** Every block of a document, siblings in order. */
export function documentBlocks(db: Db, docId: string): BlockRow[] {
  return stmt(db, 'SELECT * FROM blocks WHERE doc_id = ? ORDER BY parent_id, pos').all(docId) as BlockRow[];
}

export function childBlocks(db: Db, parentId: string): BlockRow[] {
  return stmt(db, 'SELECT * FROM blocks WHERE parent_id = ? ORDER BY pos').all(parentId) as BlockRow[];
}

export function lastPos(db: Db, parentId: string): number {
  return (stmt(db, 'SELECT COALESCE(MAX(pos), -1) AS m FROM blocks WHERE parent_id = ?').get(parentId) as { m: number }).m;
}

/** Opens a gap of `count` positions at `fromPos` among the children of `parentId`. */
export function openGap(db: Db, parentId: string, fromPos: number, count: number): void {
  stmt(db, 'UPDATE blocks SET pos = pos + ? WHERE parent_id = ? AND pos >= ?').run(count, parentId, fromPos);
}

export function insertBlock(db: Db, row: BlockRow): void {
  stmt(
    db,
    `INSERT INTO blocks (id, doc_id, parent_id, pos, type, data, markdown, created_at, created_by, modified_at, modified_by)
    VALUES (@id, @doc_id, @parent_id, @pos, @type, @data, @markdown, @created_at, @created_by, @modified_at, @modified_by)`,
  ).run(row);
}

export function updateBlockContent(db: Db, id: string, c: { type: string; data: string; markdown: string; modifiedAt: number; modifiedBy: string }): void {
  stmt(db, 'UPDATE blocks SET type = ?, data = ?, markdown = ?, modified_at = ?, modified_by = ? WHERE id = ?').run(
    c.type,
    c.data,
    c.markdown,
    c.modifiedAt,
    c.modifiedBy,
    id,
  );
}

export function placeBlock(db: Db, id: string, parentId: string, pos: number): void {
  stmt(db, 'UPDATE blocks SET parent_id = ?, pos = ? WHERE id = ?').run(parentId, pos, id);
}

/** The rows of `id` and every block below it (in no particular order). */
export function subtreeBlocks(db: Db, id: string): BlockRow[] {
  return stmt(
    db,
    `
    WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT b.id FROM blocks b JOIN sub ON b.parent_id = sub.id)
    SELECT blocks.* FROM blocks JOIN sub ON blocks.id = sub.id`,
  ).all(id) as BlockRow[];
}

/** `id` and every block below it, parents before children. */
export function subtreeIds(db: Db, id: string): string[] {
  const rows = stmt(
    db,
    `
    WITH RECURSIVE sub(id, depth) AS (SELECT ?, 0 UNION ALL SELECT b.id, sub.depth + 1 FROM blocks b JOIN sub ON b.parent_id = sub.id)
    SELECT id FROM sub ORDER BY depth`,
  ).all(id) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

export function setDocumentOf(db: Db, ids: readonly string[], docId: string): void {
  const s = stmt(db, 'UPDATE blocks SET doc_id = ? WHERE id = ?');
  for (const id of ids) s.run(docId, id);
}

export function deleteBlockRows(db: Db, ids: readonly string[]): void {
  const s = stmt(db, 'DELETE FROM blocks WHERE id = ?');
  // Children first, so no row is ever left pointing at a deleted parent mid-statement.
  for (let i = ids.length - 1; i >= 0; i--) s.run(ids[i]!);
}

/** Every block with list style task (a task, wherever it lives). */
export function taskBlocks(db: Db): BlockRow[] {
  return stmt(db, "SELECT * FROM blocks WHERE json_extract(data, '$.listStyle') = 'task'").all() as BlockRow[];
}

// Queries of comment threads on blocks.
export interface CommentRow {
  id: string;
  block_id: string;
  content: string;
  created_at: number;
  created_by: string;
}

export function commentsOf(db: Db, blockId: string): CommentRow[] {
  return stmt(db, 'SELECT * FROM comments WHERE block_id = ? ORDER BY created_at, id').all(blockId) as CommentRow[];
}

export function insertComment(db: Db, c: CommentRow): void {
  stmt(db, 'INSERT INTO comments (id, block_id, content, created_at, created_by) VALUES (@id, @block_id, @content, @created_at, @created_by)').run(c);
}
