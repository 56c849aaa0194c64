// Queries of comment threads on blocks.
import { stmt, type Db } from './openStore.js';

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
