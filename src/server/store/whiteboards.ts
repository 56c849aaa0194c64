// Queries of whiteboards: a whiteboard block's drawing elements (ordered), assets and app state.
import { stmt, type Db } from './openStore.js';

export interface WhiteboardRow {
  block_id: string;
  assets: string | null;
  app_state: string | null;
}

export interface ElementRow {
  block_id: string;
  id: string;
  pos: number;
  element: string;
}

export function getWhiteboard(db: Db, blockId: string): WhiteboardRow | undefined {
  return stmt(db, 'SELECT * FROM whiteboards WHERE block_id = ?').get(blockId) as WhiteboardRow | undefined;
}

export function insertWhiteboard(db: Db, w: WhiteboardRow): void {
  stmt(db, 'INSERT INTO whiteboards (block_id, assets, app_state) VALUES (@block_id, @assets, @app_state)').run(w);
}

export function elementsOf(db: Db, blockId: string): ElementRow[] {
  return stmt(db, 'SELECT * FROM whiteboard_elements WHERE block_id = ? ORDER BY pos').all(blockId) as ElementRow[];
}

export function insertElement(db: Db, e: ElementRow): void {
  stmt(db, 'INSERT INTO whiteboard_elements (block_id, id, pos, element) VALUES (@block_id, @id, @pos, @element)').run(e);
}

export function updateElement(db: Db, blockId: string, id: string, element: string): void {
  stmt(db, 'UPDATE whiteboard_elements SET element = ? WHERE block_id = ? AND id = ?').run(element, blockId, id);
}

/** Removes one element; true when it was there. */
export function deleteElement(db: Db, blockId: string, id: string): boolean {
  return stmt(db, 'DELETE FROM whiteboard_elements WHERE block_id = ? AND id = ?').run(blockId, id).changes > 0;
}
