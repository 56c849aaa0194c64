// Queries of uploaded files (media blocks point at them as `asset:<id>`). An asset's bytes are kept
// in chunks of at most ASSET_CHUNK_BYTES (asset_chunks), so a large file is stored from its upload
// file and served to a client a chunk at a time, never whole in memory.
import { closeSync, openSync, readSync } from 'node:fs';
import { stmt, type Db } from './openStore.js';

export const ASSET_CHUNK_BYTES = 1024 * 1024;

export interface AssetRow {
  id: string;
  content_type: string;
  file_name: string;
  /** Bytes in all; null for an asset without bytes (a fixture may name one). */
  size: number | null;
  created_at: number;
}

const COLUMNS = 'id, content_type, file_name, size, created_at';

export function getAsset(db: Db, id: string): AssetRow | undefined {
  return stmt(db, `SELECT ${COLUMNS} FROM assets WHERE id = ?`).get(id) as AssetRow | undefined;
}

export function allAssets(db: Db): AssetRow[] {
  return stmt(db, `SELECT ${COLUMNS} FROM assets ORDER BY created_at, id`).all() as AssetRow[];
}

function insertRow(db: Db, a: AssetRow): void {
  stmt(db, 'INSERT INTO assets (id, content_type, file_name, size, created_at) VALUES (@id, @content_type, @file_name, @size, @created_at)').run(a);
}

function insertChunk(db: Db, assetId: string, seq: number, bytes: Buffer): void {
  stmt(db, 'INSERT INTO asset_chunks (asset_id, seq, bytes) VALUES (?, ?, ?)').run(assetId, seq, bytes);
}

/** An asset whose bytes are in memory (fixtures): null for none. */
export function insertAsset(db: Db, a: Omit<AssetRow, 'size'>, bytes: Buffer | null): void {
  insertRow(db, { ...a, size: bytes === null ? null : bytes.length });
  if (bytes === null) return;
  for (let seq = 0, at = 0; at < bytes.length; seq++, at += ASSET_CHUNK_BYTES) insertChunk(db, a.id, seq, bytes.subarray(at, at + ASSET_CHUNK_BYTES));
}

/** An asset whose bytes are the file at `path` (an upload), read a chunk at a time. */
export function insertAssetFromFile(db: Db, a: Omit<AssetRow, 'size'>, path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(ASSET_CHUNK_BYTES);
  let size = 0;
  try {
    insertRow(db, { ...a, size: 0 });
    for (let seq = 0; ; seq++) {
      const n = readSync(fd, buffer, 0, ASSET_CHUNK_BYTES, null);
      if (n === 0) break;
      insertChunk(db, a.id, seq, buffer.subarray(0, n));
      size += n;
    }
  } finally {
    closeSync(fd);
  }
  stmt(db, 'UPDATE assets SET size = ? WHERE id = ?').run(size, a.id);
  return size;
}

/** The asset's chunk number `seq` (from 0); undefined past the last. */
export function assetChunk(db: Db, id: string, seq: number): Buffer | undefined {
  return (stmt(db, 'SELECT bytes FROM asset_chunks WHERE asset_id = ? AND seq = ?').get(id, seq) as { bytes: Buffer } | undefined)?.bytes;
}

/** The asset's bytes whole (snapshots of a space); null for an asset without bytes. */
export function assetBytes(db: Db, a: AssetRow): Buffer | null {
  if (a.size === null) return null;
  const chunks = stmt(db, 'SELECT bytes FROM asset_chunks WHERE asset_id = ? ORDER BY seq').all(a.id) as Array<{ bytes: Buffer }>;
  return Buffer.concat(chunks.map((c) => c.bytes));
}
