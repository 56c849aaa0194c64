// Queries of collections (schema, active view) and their stored views. Items are blocks of type
// collectionItem under the collection block (see blocks.ts).
import { stmt, type Db } from './openStore.js';

export interface CollectionRow {
  block_id: string;
  name: string;
  /** JSON of the schema in its write form. */
  schema: string;
  active_view_id: string | null;
}

export interface ViewRow {
  id: string;
  collection_id: string;
  pos: number;
  /** JSON of the stored view configuration. */
  view: string;
}

export function getCollection(db: Db, blockId: string): CollectionRow | undefined {
  return stmt(db, 'SELECT * FROM collections WHERE block_id = ?').get(blockId) as CollectionRow | undefined;
}

export function allCollections(db: Db): CollectionRow[] {
  return stmt(db, 'SELECT * FROM collections').all() as CollectionRow[];
}

export function insertCollection(db: Db, c: CollectionRow): void {
  stmt(db, 'INSERT INTO collections (block_id, name, schema, active_view_id) VALUES (@block_id, @name, @schema, @active_view_id)').run(c);
}

export function viewsOf(db: Db, collectionId: string): ViewRow[] {
  return stmt(db, 'SELECT * FROM collection_views WHERE collection_id = ? ORDER BY pos').all(collectionId) as ViewRow[];
}

export function insertView(db: Db, v: ViewRow): void {
  stmt(db, 'INSERT INTO collection_views (id, collection_id, pos, view) VALUES (@id, @collection_id, @pos, @view)').run(v);
}
