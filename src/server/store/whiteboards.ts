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
