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

export function insertCollection(db: Db, c: CollectionRow): void {
  stmt(db, 'INSERT INTO collections (block_id, name, schema, active_view_id) VALUES (@block_id, @name, @schema, @active_view_id)').run(c);
}

export function viewsOf(db: Db, collectionId: string): ViewRow[] {
  return stmt(db, 'SELECT * FROM collection_views WHERE collection_id = ? ORDER BY pos').all(collectionId) as ViewRow[];
}

export function insertView(db: Db, v: ViewRow): void {
  stmt(db, 'INSERT INTO collection_views (id, collection_id, pos, view) VALUES (@id, @collection_id, @pos, @view)').run(v);
}

export function updateCollection(db: Db, blockId: string, c: { name: string; schema: string }): void {
  stmt(db, 'UPDATE collections SET name = ?, schema = ? WHERE block_id = ?').run(c.name, c.schema, blockId);
}

export function setActiveView(db: Db, collectionId: string, viewId: string | null): void {
  stmt(db, 'UPDATE collections SET active_view_id = ? WHERE block_id = ?').run(viewId, collectionId);
}

export function updateView(db: Db, id: string, view: string): void {
  stmt(db, 'UPDATE collection_views SET view = ? WHERE id = ?').run(view, id);
}

export function deleteView(db: Db, id: string): void {
  stmt(db, 'DELETE FROM collection_views WHERE id = ?').run(id);
}

/** Every collection with its document, documents in creation order. */
export function collectionsWithDocuments(db: Db): Array<CollectionRow & { doc_id: string }> {
  return stmt(
    db,
    `SELECT c.*, b.doc_id FROM collections c JOIN blocks b ON b.id = c.block_id JOIN documents d ON d.id = b.doc_id
    ORDER BY d.seq`,
  ).all() as Array<CollectionRow & { doc_id: string }>;
}
