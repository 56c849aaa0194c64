// Queries of uploaded files (media blocks point at them as `asset:<id>`).
import { stmt, type Db } from './openStore.js';

export interface AssetRow {
  id: string;
  content_type: string;
  file_name: string;
  bytes: Buffer | null;
  created_at: number;
}

export function getAsset(db: Db, id: string): AssetRow | undefined {
  return stmt(db, 'SELECT * FROM assets WHERE id = ?').get(id) as AssetRow | undefined;
}

export function allAssets(db: Db): AssetRow[] {
  return stmt(db, 'SELECT * FROM assets ORDER BY created_at, id').all() as AssetRow[];
}

export function insertAsset(db: Db, a: AssetRow): void {
  stmt(db, 'INSERT INTO assets (id, content_type, file_name, bytes, created_at) VALUES (@id, @content_type, @file_name, @bytes, @created_at)').run(a);
}
