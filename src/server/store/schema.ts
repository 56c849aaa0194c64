// The store's schema as numbered migrations; PRAGMA user_version records how far a file got.
// Add a migration at the end to change the schema; never edit one that has shipped.
import type { Database } from 'better-sqlite3';

export const MIGRATIONS: readonly string[] = [
  // 1: the space, folders, documents, blocks, and what hangs off blocks (comments, reminders,
  // collections, whiteboards, uploaded assets), so a fixture round-trips whole.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE folders (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES folders(id),
    pos INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX folders_parent ON folders(parent_id, pos);

  -- A document is its root page block (documents.id = blocks.id). location is one of
  -- unsorted, templates, trash, folder (with folder_id), daily_notes, inbox (the hidden task inbox).
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    location TEXT NOT NULL,
    folder_id TEXT REFERENCES folders(id),
    daily_note_date TEXT,
    created_at INTEGER NOT NULL,
    last_modified_at INTEGER NOT NULL,
    trashed_at INTEGER
  );
  CREATE INDEX documents_location ON documents(location, folder_id, seq);
  CREATE UNIQUE INDEX documents_daily_note ON documents(daily_note_date) WHERE location = 'daily_notes';
  CREATE INDEX documents_trashed ON documents(trashed_at) WHERE trashed_at IS NOT NULL;

  -- data: the block's structured fields as JSON (everything of the wire shape but id, type,
  -- markdown, content, metadata). markdown: derived from data by the dialect, media URLs unsigned.
  CREATE TABLE blocks (
    id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    parent_id TEXT,
    pos INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    markdown TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    modified_at INTEGER NOT NULL,
    modified_by TEXT NOT NULL
  );
  CREATE INDEX blocks_doc ON blocks(doc_id);
  CREATE INDEX blocks_parent ON blocks(parent_id, pos);

  CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    block_id TEXT NOT NULL REFERENCES blocks(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL
  );
  CREATE INDEX comments_block ON comments(block_id, created_at);

  CREATE TABLE reminders (
    id TEXT PRIMARY KEY,
    block_id TEXT NOT NULL UNIQUE REFERENCES blocks(id) ON DELETE CASCADE,
    remind_at INTEGER,
    is_completed INTEGER NOT NULL DEFAULT 0,
    completed_at INTEGER,
    created_at INTEGER NOT NULL
  );

  -- A collection block's schema and stored views; its items are blocks of type collectionItem
  -- whose parent is the collection block (data: {title, properties}).
  CREATE TABLE collections (
    block_id TEXT PRIMARY KEY REFERENCES blocks(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    schema TEXT NOT NULL,
    active_view_id TEXT
  );
  CREATE TABLE collection_views (
    id TEXT PRIMARY KEY,
    collection_id TEXT NOT NULL REFERENCES collections(block_id) ON DELETE CASCADE,
    pos INTEGER NOT NULL,
    view TEXT NOT NULL
  );
  CREATE INDEX collection_views_collection ON collection_views(collection_id, pos);

  CREATE TABLE whiteboards (
    block_id TEXT PRIMARY KEY REFERENCES blocks(id) ON DELETE CASCADE,
    assets TEXT,
    app_state TEXT
  );
  CREATE TABLE whiteboard_elements (
    block_id TEXT NOT NULL REFERENCES whiteboards(block_id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    pos INTEGER NOT NULL,
    element TEXT NOT NULL,
    PRIMARY KEY (block_id, id)
  );

  -- Uploaded files; media blocks refer to them as asset:<id> and are served with signed URLs.
  CREATE TABLE assets (
    id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    file_name TEXT NOT NULL,
    bytes BLOB,
    created_at INTEGER NOT NULL
  );
  `,
  // 2: an asset's bytes in chunks (asset_chunks, in seq order) so that storing and serving a large
  // file never holds it whole; size is NULL for an asset without bytes. assets.bytes is no longer
  // written: what it held moves into one chunk.
  `
  CREATE TABLE asset_chunks (
    asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    bytes BLOB NOT NULL,
    PRIMARY KEY (asset_id, seq)
  );
  ALTER TABLE assets ADD COLUMN size INTEGER;
  INSERT INTO asset_chunks (asset_id, seq, bytes) SELECT id, 0, bytes FROM assets WHERE bytes IS NOT NULL AND length(bytes) > 0;
  UPDATE assets SET size = length(bytes) WHERE bytes IS NOT NULL;
  UPDATE assets SET bytes = NULL;
  `,
  // 3: documents by seq, so that the next seq of a new document (MAX(seq)) is found without
  // scanning every document: loading a space of N documents was quadratic in N.
  `
  CREATE INDEX documents_seq ON documents(seq);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings `db` up to the current schema; refuses a file written by a newer version. */
export function migrate(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(`The space file has schema version ${version}, newer than this server's ${SCHEMA_VERSION}: upgrade spacesync to open it.`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
