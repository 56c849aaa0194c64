// The journal's schema as an ordered list of migrations; PRAGMA user_version records the last
// one applied. Each migration runs in its own transaction together with the version bump.
import type Database from 'better-sqlite3';
import { packHash, packId, packNs, packTime, packVersionFile, unpackId } from './compactValues.js';
import { decodeBase, decodeBlocks, encodeBase, encodeBlocks, type CodedBlock } from './blockCodec.js';
import { BLOCK_INDEXES } from './types.js';
import type { BaseBlock } from './types.js';

/** Marks a database file as a spacesync journal (PRAGMA application_id): "SpSy". */
export const APPLICATION_ID = 0x53705379;

export interface Migration {
  version: number;
  up: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: (db) => {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.exec(`
        CREATE TABLE documents (
          id                 TEXT PRIMARY KEY,
          path               TEXT NOT NULL UNIQUE,
          title              TEXT NOT NULL,
          location           TEXT NOT NULL CHECK (location IN ('unsorted', 'templates', 'trash', 'daily_notes', 'folder')),
          folder_id          TEXT,
          daily_note_date    TEXT,
          remote_modified_at TEXT,
          created_at         TEXT,
          file_hash          TEXT,
          synced_at          TEXT NOT NULL,
          CHECK ((location = 'folder') = (folder_id IS NOT NULL))
        );
        CREATE INDEX documents_folder ON documents (folder_id);

        CREATE TABLE base_blocks (
          doc_id    TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
          seq       INTEGER NOT NULL,
          id        TEXT NOT NULL,
          parent_id TEXT,
          position  INTEGER NOT NULL,
          level     INTEGER NOT NULL,
          kind      TEXT NOT NULL CHECK (kind IN ('block', 'page', 'card', 'readonly')),
          type      TEXT NOT NULL,
          markdown  TEXT NOT NULL,
          hash      TEXT NOT NULL,
          PRIMARY KEY (doc_id, seq)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX base_blocks_id ON base_blocks (doc_id, id);

        CREATE TABLE folders (
          id             TEXT PRIMARY KEY,
          name           TEXT NOT NULL,
          parent_id      TEXT,
          path           TEXT NOT NULL UNIQUE,
          document_count INTEGER NOT NULL DEFAULT 0
        );

        CREATE TABLE listing (
          doc_id           TEXT PRIMARY KEY,
          title            TEXT NOT NULL,
          last_modified_at TEXT
        ) WITHOUT ROWID;
        CREATE TABLE listing_meta (
          one      INTEGER PRIMARY KEY CHECK (one = 1),
          taken_at TEXT NOT NULL
        );

        CREATE TABLE intents (
          id         INTEGER PRIMARY KEY AUTOINCREMENT,
          doc_id     TEXT,
          op         TEXT NOT NULL,
          payload    TEXT NOT NULL,
          created_at TEXT NOT NULL
        );

        CREATE TABLE conflicts (
          id          INTEGER PRIMARY KEY AUTOINCREMENT,
          doc_id      TEXT NOT NULL,
          path        TEXT NOT NULL,
          copy_path   TEXT NOT NULL,
          created_at  TEXT NOT NULL,
          resolved_at TEXT,
          details     TEXT NOT NULL
        );

        CREATE TABLE state (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // The version history (issue 14): what the sync replaced or removed on either side, newest last.
    version: 2,
    up: (db) => {
      db.exec(`
        CREATE TABLE history (
          id           INTEGER PRIMARY KEY AUTOINCREMENT,
          at           TEXT NOT NULL,
          side         TEXT NOT NULL CHECK (side IN ('local', 'remote')),
          doc_id       TEXT,
          path         TEXT NOT NULL,
          cause        TEXT NOT NULL,
          request      TEXT,
          version_file TEXT,
          size         INTEGER NOT NULL,
          blocks       TEXT,
          summary      TEXT NOT NULL
        );
        CREATE INDEX history_path ON history (path, id);
      `);
    },
  },
  {
    // The stat cache (issue 21), as git's index: each file's stat when its content hash was taken,
    // so a scan reads again only files whose stat moved. Times and inodes are nanosecond bigints as text.
    version: 3,
    up: (db) => {
      db.exec(`
        CREATE TABLE file_stats (
          path        TEXT PRIMARY KEY,
          size        INTEGER NOT NULL,
          mtime_ns    TEXT NOT NULL,
          ctime_ns    TEXT NOT NULL,
          ino         TEXT NOT NULL,
          hash        TEXT NOT NULL,
          recorded_ns TEXT NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // Compaction (issue 14): the journal of a 10,000-document mirror weighed six times its files.
    // A document's base becomes one BLOB beside its record (blockCodec: binary ids, compressed text,
    // no hash where hashBlock gives it back) instead of a row per block carrying the document's id
    // twice (table and unique index) and hex hashes as text; a remote version's blocks and summary
    // likewise; the index on documents.folder_id, which no query used, goes.
    version: 4,
    up: (db) => {
      db.exec(`
        ALTER TABLE documents ADD COLUMN base_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE documents ADD COLUMN base BLOB;
        DROP INDEX documents_folder;
      `);
      const setBase = db.prepare('UPDATE documents SET base_count = ?, base = ? WHERE id = ?');
      const rows = db
        .prepare('SELECT doc_id, id, parent_id AS parentId, position, level, kind, type, markdown, hash FROM base_blocks ORDER BY doc_id, seq')
        .all() as Array<BaseBlock & { doc_id: string }>;
      const byDoc = new Map<string, BaseBlock[]>();
      for (const { doc_id: doc, ...b } of rows) {
        const list = byDoc.get(doc);
        if (list) list.push(b);
        else byDoc.set(doc, [b]);
      }
      for (const [doc, blocks] of byDoc) setBase.run(blocks.length, encodeBase(blocks), doc);
      db.exec(`
        DROP TABLE base_blocks;
        CREATE TABLE history_v4 (
          id           INTEGER PRIMARY KEY AUTOINCREMENT,
          at           TEXT NOT NULL,
          side         TEXT NOT NULL CHECK (side IN ('local', 'remote')),
          doc_id       TEXT,
          path         TEXT NOT NULL,
          cause        TEXT NOT NULL,
          request      TEXT,
          version_file TEXT,
          size         INTEGER NOT NULL,
          blocks       BLOB,
          added        INTEGER NOT NULL,
          removed      INTEGER NOT NULL,
          edited       INTEGER NOT NULL
        );
      `);
      const insert = db.prepare(`INSERT INTO history_v4 (id, at, side, doc_id, path, cause, request, version_file, size, blocks, added, removed, edited)
        VALUES (@id, @at, @side, @doc_id, @path, @cause, @request, @version_file, @size, @blocks, @added, @removed, @edited)`);
      const old = db.prepare('SELECT * FROM history ORDER BY id').all() as Array<{
        id: number;
        at: string;
        side: string;
        doc_id: string | null;
        path: string;
        cause: string;
        request: string | null;
        version_file: string | null;
        size: number;
        blocks: string | null;
        summary: string;
      }>;
      for (const h of old) {
        const summary = JSON.parse(h.summary) as { added: number; removed: number; edited: number };
        const blocks = h.blocks === null ? null : encodeBlocks(JSON.parse(h.blocks) as CodedBlock[]);
        insert.run({
          id: h.id,
          at: h.at,
          side: h.side,
          doc_id: h.doc_id,
          path: h.path,
          cause: h.cause,
          request: h.request,
          version_file: h.version_file,
          size: blocks === null ? h.size : blocks.length,
          blocks,
          added: summary.added,
          removed: summary.removed,
          edited: summary.edited,
        });
      }
      db.exec(`
        DROP TABLE history;
        ALTER TABLE history_v4 RENAME TO history;
        CREATE INDEX history_path ON history (path, id);
      `);
    },
  },
  {
    // Compaction, continued (issue 14): a document's file sha256 as its 32 bytes instead of 64
    // hex characters and its times as 6 bytes instead of 24 characters (compactValues), and no
    // index on history (path, id), which no query used (a file's versions are asked for by its
    // path or its document, a scan either way).
    version: 5,
    up: (db) => {
      db.exec('DROP INDEX history_path');
      const update = db.prepare('UPDATE documents SET remote_modified_at = ?, created_at = ?, file_hash = ?, synced_at = ? WHERE id = ?');
      const rows = db.prepare('SELECT id, remote_modified_at, created_at, file_hash, synced_at FROM documents').all() as Array<{
        id: string;
        remote_modified_at: string | null;
        created_at: string | null;
        file_hash: string | null;
        synced_at: string;
      }>;
      for (const r of rows) update.run(packTime(r.remote_modified_at), packTime(r.created_at), packHash(r.file_hash), packTime(r.synced_at), r.id);
    },
  },
  {
    // Compaction of the stat cache (issue 14): a file's times and inode as 8-byte integers instead
    // of 19-digit text and its sha256 as 32 bytes instead of 64 hex characters (compactValues);
    // about half the bytes of a row, which every file of the mirror has. The columns have no type,
    // so a value that is not an int64 (an inode above 2^63) is kept as its text, never rounded.
    version: 6,
    up: (db) => {
      db.exec(`
        CREATE TABLE file_stats_v6 (
          path        TEXT PRIMARY KEY,
          size        INTEGER NOT NULL,
          mtime_ns    NOT NULL,
          ctime_ns    NOT NULL,
          ino         NOT NULL,
          hash        NOT NULL,
          recorded_ns NOT NULL
        ) WITHOUT ROWID;
      `);
      const insert = db.prepare('INSERT INTO file_stats_v6 (path, size, mtime_ns, ctime_ns, ino, hash, recorded_ns) VALUES (?, ?, ?, ?, ?, ?, ?)');
      const rows = db.prepare('SELECT path, size, mtime_ns, ctime_ns, ino, hash, recorded_ns FROM file_stats').raw().all() as Array<
        [string, number, string, string, string, string, string]
      >;
      for (const [p, size, mtime, ctime, ino, hash, recorded] of rows) {
        insert.run(p, size, packNs(BigInt(mtime)), packNs(BigInt(ctime)), packNs(BigInt(ino)), packHash(hash), packNs(BigInt(recorded)));
      }
      db.exec(`
        DROP TABLE file_stats;
        ALTER TABLE file_stats_v6 RENAME TO file_stats;
      `);
    },
  },
  {
    // Compaction, continued (issue 14): beside a 10,000-document mirror `.spacesync/` still weighed
    // 2.05 times its files. Block lists are compressed with deflate over a shared dictionary
    // (blockCodec format 2) instead of brotli alone; a document's id and folder id, and a version's
    // document id, as 16 bytes when they are upper-case UUIDs (compactValues.packId); a version's
    // time as 6 bytes, and its file only by its name when it lies in `.spacesync/versions/<path>/`.
    version: 7,
    up: (db) => {
      const reencode = (data: Buffer | null): Buffer | null => (data === null ? null : encodeBlocks(decodeBlocks(data)));
      const documents = db.prepare('SELECT rowid, id, folder_id, base FROM documents').raw().all() as Array<[number, string, string | null, Buffer | null]>;
      const setDocument = db.prepare('UPDATE documents SET id = ?, folder_id = ?, base = ? WHERE rowid = ?');
      for (const [rowid, id, folder, base] of documents) setDocument.run(packId(id), packId(folder), reencode(base), rowid);
      const history = db.prepare('SELECT id, at, doc_id, path, version_file, blocks FROM history').raw().all() as Array<
        [number, string, string | null, string, string | null, Buffer | null]
      >;
      const setHistory = db.prepare('UPDATE history SET at = ?, doc_id = ?, version_file = ?, blocks = ?, size = coalesce(length(?), size) WHERE id = ?');
      for (const [id, at, doc, p, versionFile, blocks] of history) {
        const coded = reencode(blocks);
        setHistory.run(packTime(at), packId(doc), packVersionFile(versionFile, p), coded, coded, id);
      }
    },
  },
  {
    // Every change of a document's path is noted in the same write that makes it (a trigger), so the
    // links to a moved document follow it even when the process is killed right after the move: the
    // next run's relink reads what is noted here and clears it once the links are written.
    version: 8,
    up: (db) => {
      db.exec(`
        CREATE TABLE moved_documents (
          seq       INTEGER PRIMARY KEY AUTOINCREMENT,
          id        NOT NULL,
          from_path TEXT NOT NULL,
          to_path   TEXT NOT NULL,
          -- the moved document's own relative links were rewritten for its new folder
          own_done  INTEGER NOT NULL DEFAULT 0
        );
        CREATE TRIGGER document_moved AFTER UPDATE OF path ON documents WHEN old.path IS NOT new.path
        BEGIN
          INSERT INTO moved_documents (id, from_path, to_path) VALUES (new.id, old.path, new.path);
        END;
      `);
    },
  },
  {
    // The block indexes computed again from every base: drawing blocks joined the media ones (their
    // assets are downloaded now), and links to blocks inside documents got an index of their own, so
    // a mirror synced before finds them without waiting for each document to change.
    version: 9,
    up: (db) => {
      const put = db.prepare('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
      const drop = db.prepare('DELETE FROM state WHERE key = ?');
      const rows = db.prepare('SELECT id, base FROM documents').raw().all() as Array<[string | Buffer, Buffer | null]>;
      for (const [packed, base] of rows) {
        const id = unpackId<string>(packed);
        const blocks = base === null ? [] : decodeBase(base);
        for (const [prefix, listed] of BLOCK_INDEXES) {
          const ids = blocks.filter(listed).map((b) => b.id);
          if (ids.length > 0) put.run(`${prefix}${id}`, JSON.stringify(ids));
          else drop.run(`${prefix}${id}`);
        }
      }
    },
  },
  {
    // A document going to the trash is noted in the history, with the path its file had, in the same
    // write that records it there (a trigger, whichever side trashed it): `spacesync restore` finds a
    // trashed document by its old path and knows where to move its file back to. A document already
    // in the trash gets its note from what the journal still knows of its old path (the moves not yet
    // relinked, then the former paths the links remember).
    version: 10,
    up: (db) => {
      db.exec(`
        CREATE TRIGGER document_trashed AFTER UPDATE OF location ON documents
        WHEN new.location = 'trash' AND old.location IS NOT 'trash'
        BEGIN
          INSERT INTO history (at, side, doc_id, path, cause, request, version_file, size, blocks, added, removed, edited)
          VALUES (new.synced_at, 'remote', new.id, old.path, 'trash', NULL, NULL, 0, NULL, 0, old.base_count, 0);
        END;
      `);
      const former = db.prepare("SELECT value FROM state WHERE key = 'links.formerPaths'").pluck().get() as string | undefined;
      const formerPaths = Object.entries(former === undefined ? {} : (JSON.parse(former) as Record<string, string>));
      const lastMove = db.prepare('SELECT from_path FROM moved_documents WHERE id = ? AND to_path = ? ORDER BY seq DESC LIMIT 1').pluck();
      const insert = db.prepare(`INSERT INTO history (at, side, doc_id, path, cause, request, version_file, size, blocks, added, removed, edited)
        VALUES (?, 'remote', ?, ?, 'trash', NULL, NULL, 0, NULL, 0, ?, 0)`);
      const trashed = db.prepare("SELECT id, path, synced_at, base_count FROM documents WHERE location = 'trash'").raw().all() as Array<
        [string | Buffer, string, string | Buffer, number]
      >;
      const outside = (p: string | undefined) => (p !== undefined && !p.startsWith('Trash/') ? p : undefined);
      for (const [id, p, at, count] of trashed) {
        const old = outside(lastMove.get(id, p) as string | undefined) ?? outside(formerPaths.findLast(([, to]) => to === p)?.[0]);
        if (old !== undefined) insert.run(at, id, old, count);
      }
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations above the database's user_version, in order, each in one immediate
 * transaction with its version bump: a failing migration leaves the previous version intact.
 * Returns the versions applied. The caller has already refused a version above the list's.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const applied: number[] = [];
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  // An up-to-date journal takes no write lock at all: opening it must not wait on a running daemon.
  const current = userVersion(db);
  for (const m of ordered) {
    if (m.version <= current) continue;
    const step = db.transaction(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (userVersion(db) >= m.version) return false;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
}
