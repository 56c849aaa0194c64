import { createHash } from 'node:crypto';
// The journal's queries: one typed method per question the sync shell asks, every multi-row
// update in one transaction. Opened (checked and migrated) by openJournal.
import type Database from 'better-sqlite3';
import {
  packHash,
  packId,
  packNs,
  packTime,
  packVersionFile,
  hashColumn,
  idColumn,
  timeColumn,
  unpackHash,
  unpackId,
  unpackNs,
  unpackSharedId,
  unpackTime,
  unpackVersionFile,
} from './compactValues.js';
import { decodeBase, decodeBlocks, encodeBase, encodeBlocks } from './blockCodec.js';
import { orderBlocks } from './orderBlocks.js';
import { ANCHOR_LINKS_OF, BLOCK_INDEXES, LINKS_OF, MEDIA_OF, WHITEBOARDS_OF } from './types.js';

export { ANCHOR_LINKS_OF, LINKS_OF, MEDIA_OF, WHITEBOARDS_OF };
import {
  BLOCK_KINDS,
  type BaseBlock,
  type ConflictInput,
  type ConflictRecord,
  type DocumentInput,
  type DocumentLocation,
  type DocumentRecord,
  type FileStatRecord,
  type FolderRecord,
  type HistoryBlock,
  type HistoryInput,
  type HistoryRecord,
  type HistoryTotals,
  type Intent,
  type IntentInput,
  type JournalCounts,
  type Listing,
  type ListingEntry,
} from './types.js';

/** A nanosecond count or an inode as stored (compactValues.packNs), read with safeIntegers. */
type StoredNs = bigint | string;

interface DocumentRow {
  id: string | Buffer;
  path: string;
  title: string;
  location: DocumentLocation;
  folder_id: string | Buffer | null;
  daily_note_date: string | null;
  remote_modified_at: string | Buffer | null;
  created_at: string | Buffer | null;
  file_hash: string | Buffer | null;
  synced_at: string | Buffer;
}
/** The documents table's columns but the base (read only by getBaseBlocks). */
const DOCUMENT_COLUMNS = [
  `${idColumn('id')} AS id`,
  'path',
  'title',
  'location',
  `${idColumn('folder_id')} AS folder_id`,
  'daily_note_date',
  `${timeColumn('remote_modified_at')} AS remote_modified_at`,
  `${timeColumn('created_at')} AS created_at`,
  `${hashColumn('file_hash')} AS file_hash`,
  `${timeColumn('synced_at')} AS synced_at`,
].join(', ');
interface FolderRow {
  id: string;
  name: string;
  parent_id: string | null;
  path: string;
  document_count: number;
}
interface IntentRow {
  id: number;
  doc_id: string | null;
  op: string;
  payload: string;
  created_at: string;
}
interface ConflictRow {
  id: number;
  doc_id: string;
  path: string;
  copy_path: string;
  created_at: string;
  resolved_at: string | null;
  details: string;
}

interface HistoryRow {
  id: number;
  at: string | Buffer;
  side: 'local' | 'remote';
  doc_id: string | Buffer | null;
  path: string;
  cause: string;
  request: string | null;
  version_file: string | null;
  size: number;
  blocks: Buffer | null;
  added: number;
  removed: number;
  edited: number;
}
const toHistory = (r: HistoryRow): HistoryRecord => ({
  id: r.id,
  at: unpackTime(r.at),
  side: r.side,
  docId: unpackId(r.doc_id),
  path: r.path,
  cause: r.cause,
  request: r.request,
  versionFile: unpackVersionFile(r.version_file, r.path),
  size: r.size,
  blocks: r.blocks === null ? null : (decodeBlocks(r.blocks) as HistoryBlock[]),
  summary: { added: r.added, removed: r.removed, edited: r.edited },
});

const toDocument = (r: DocumentRow): DocumentRecord => ({
  id: unpackId(r.id),
  path: r.path,
  title: r.title,
  location: r.location,
  folderId: unpackSharedId(r.folder_id),
  dailyNoteDate: r.daily_note_date,
  remoteModifiedAt: unpackTime(r.remote_modified_at),
  createdAt: unpackTime(r.created_at),
  fileHash: unpackHash(r.file_hash),
  syncedAt: unpackTime(r.synced_at),
});
const toFolder = (r: FolderRow): FolderRecord => ({
  id: r.id,
  name: r.name,
  parentId: r.parent_id,
  path: r.path,
  documentCount: r.document_count,
});
const toIntent = (r: IntentRow): Intent => ({
  id: r.id,
  docId: r.doc_id,
  op: r.op,
  payload: JSON.parse(r.payload) as unknown,
  createdAt: r.created_at,
});
const toConflict = (r: ConflictRow): ConflictRecord => ({
  id: r.id,
  docId: r.doc_id,
  path: r.path,
  copyPath: r.copy_path,
  createdAt: r.created_at,
  resolvedAt: r.resolved_at,
  details: JSON.parse(r.details) as unknown,
});

function sameListing(a: ReadonlyMap<string, ListingEntry>, b: ReadonlyMap<string, ListingEntry>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, e] of b) {
    const o = a.get(id);
    if (!o || o.title !== e.title || o.lastModifiedAt !== e.lastModifiedAt) return false;
  }
  return true;
}

/** State key of the recorded listing's fingerprint, written with its rows. */
const LISTING_PRINT = 'listing.print';

/** A fingerprint of a listing, entry by entry in order. */
function listingPrint(items: ReadonlyMap<string, ListingEntry>): string {
  // Hashed as it is read, in pieces of some 64 KiB: the fields of 50,000 documents joined first
  // were a string of megabytes at the cycle's peak. The bytes hashed are the same: the fields in
  // order, separated by NUL.
  const hash = createHash('sha1');
  let piece = '';
  let sep = '';
  for (const [id, e] of items) {
    piece += `${sep}${id}\u0000${e.title}\u0000${e.lastModifiedAt ?? ''}`;
    sep = '\u0000';
    if (piece.length >= 65_536) {
      hash.update(piece);
      piece = '';
    }
  }
  return hash.update(piece).digest('base64');
}

/** JSON that round-trips: `undefined` would be dropped silently, so it is refused. */
function toJson(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error(`The journal cannot store ${what}: the value is not JSON (got ${typeof value}).`);
  return text;
}

export class Journal {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly now: () => Date;

  constructor(db: Database.Database, file: string, now: () => Date) {
    this.db = db;
    this.file = file;
    this.now = now;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared statements are cached: the sync shell asks the same questions thousands of times. */
  private sql(source: string): Database.Statement {
    let stmt = this.statements.get(source);
    if (!stmt) {
      stmt = this.db.prepare(source);
      this.statements.set(source, stmt);
    }
    return stmt;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  /**
   * Runs `fn` in one transaction (BEGIN IMMEDIATE, so a concurrent reader never forces a retry);
   * a throw rolls everything back. Nested calls become savepoints. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Moves what the write-ahead log holds into the journal file and cuts the log to nothing (at the
   * end of a cycle, and at close). It never waits: while another process (the CLI beside a daemon)
   * reads, the log stays as it is until the next time. Returns whether the log was emptied.
   */
  checkpoint(): boolean {
    if (!this.db.open || this.db.memory || this.db.inTransaction) return false;
    const wait = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      return r?.busy === 0;
    } catch {
      return false;
    } finally {
      this.db.pragma(`busy_timeout = ${wait}`);
    }
  }

  close(): void {
    if (!this.db.open) return;
    this.checkpoint();
    this.db.close();
  }

  // ── documents ────────────────────────────────────────────────────────────────────────────────

  /**
   * Every document as last read, kept while nothing wrote the table: an idle poll compares the
   * listing with the records without reading 10,000 rows again. Written only outside a transaction
   * (a rollback cannot leave it ahead of the file), dropped by every write of this connection and
   * when another connection committed (SQLite's data_version moves).
   */
  private documentsCache: { version: number; records: readonly DocumentRecord[] } | null = null;
  /** The history's totals, kept like the document list: retention weighs them at every cycle's start. */
  private historyCache: { version: number; totals: HistoryTotals } | null = null;

  /**
   * Lets go of the records kept for the next read: a daemon between operations holds none (50,000
   * are some 25 MiB), and the next cycle that needs them reads them again.
   */
  releaseCaches(): void {
    this.documentsCache = null;
  }

  /** SQLite's data_version: it moves when another connection (another process) commits a write. */
  dataVersion(): number {
    return this.sql('PRAGMA data_version').pluck().get() as number;
  }

  private documentsChanged(): void {
    this.documentsCache = null;
    // A document moved to the trash writes its note in the history (the document_trashed trigger).
    this.historyCache = null;
  }

  getDocument(id: string): DocumentRecord | undefined {
    const row = this.sql(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = ?`).get(packId(id)) as DocumentRow | undefined;
    return row && toDocument(row);
  }

  getDocumentByPath(path: string): DocumentRecord | undefined {
    const row = this.sql(`SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE path = ?`).get(path) as DocumentRow | undefined;
    return row && toDocument(row);
  }

  /** Every document, by path. */
  listDocuments(): DocumentRecord[] {
    const version = this.dataVersion();
    if (this.documentsCache?.version === version) return [...this.documentsCache.records];
    const records = (this.sql(`SELECT ${DOCUMENT_COLUMNS} FROM documents ORDER BY path`).all() as DocumentRow[]).map((r) => Object.freeze(toDocument(r)));
    if (!this.db.inTransaction) this.documentsCache = { version, records };
    return [...records];
  }

  upsertDocument(doc: DocumentInput): void {
    this.documentsChanged();
    this.sql(
      `
      INSERT INTO documents (id, path, title, location, folder_id, daily_note_date, remote_modified_at, created_at, file_hash, synced_at)
      VALUES (@id, @path, @title, @location, @folderId, @dailyNoteDate, @remoteModifiedAt, @createdAt, @fileHash, @syncedAt)
      ON CONFLICT (id) DO UPDATE SET path = excluded.path, title = excluded.title, location = excluded.location,
        folder_id = excluded.folder_id, daily_note_date = excluded.daily_note_date,
        remote_modified_at = excluded.remote_modified_at, created_at = excluded.created_at,
        file_hash = excluded.file_hash, synced_at = excluded.synced_at
    `,
    ).run({
      ...doc,
      id: packId(doc.id),
      folderId: packId(doc.folderId),
      remoteModifiedAt: packTime(doc.remoteModifiedAt),
      createdAt: packTime(doc.createdAt),
      fileHash: packHash(doc.fileHash),
      syncedAt: packTime(doc.syncedAt ?? this.stamp()),
    });
  }

  /** Forgets a document and its base blocks. Returns whether it was known. */
  deleteDocument(id: string): boolean {
    this.documentsChanged();
    this.baseReplaced(id);
    for (const [prefix] of BLOCK_INDEXES) this.deleteState(`${prefix}${id}`);
    return this.sql('DELETE FROM documents WHERE id = ?').run(packId(id)).changes > 0;
  }

  /**
   * The document moves noted since the last `clearMoves` (by the `document_moved` trigger, in the
   * write that moved each), oldest first, with `seq` to clear them by; `ownDone`: the moved file's own
   * relative links were rewritten for it already. Documents gone since are left out.
   */
  pendingMoves(): Array<{ seq: number; id: string; from: string; to: string; ownDone: boolean }> {
    const rows = this.sql(
      'SELECT m.seq, m.id, m.from_path, m.to_path, m.own_done FROM moved_documents m WHERE EXISTS (SELECT 1 FROM documents d WHERE d.id = m.id) ORDER BY m.seq',
    )
      .raw()
      .all() as Array<[number, string | Buffer, string, string, number]>;
    return rows.map(([seq, id, from, to, own]) => ({ seq, id: unpackId<string>(id), from, to, ownDone: own === 1 }));
  }

  /** Whether any move is noted (the relink's whole cost when nothing moved). */
  hasPendingMoves(): boolean {
    return this.sql('SELECT 1 FROM moved_documents LIMIT 1').get() !== undefined;
  }

  /** The moved document's own links now follow its moves up to `seq` (written with its relinked base). */
  markOwnLinksFollowed(id: string, seq: number): void {
    this.sql('UPDATE moved_documents SET own_done = 1 WHERE id = ? AND seq <= ?').run(packId(id), seq);
  }

  /** Forgets the moves noted up to `seq` (every link to them followed). */
  clearMoves(seq: number): void {
    this.sql('DELETE FROM moved_documents WHERE seq <= ?').run(seq);
  }

  /** Records the hash of the file as the daemon just wrote or read it. */
  setFileHash(id: string, fileHash: string | null): boolean {
    this.documentsChanged();
    return this.sql('UPDATE documents SET file_hash = ?, synced_at = ? WHERE id = ?').run(packHash(fileHash), packTime(this.stamp()), packId(id)).changes > 0;
  }

  /**
   * A directory moved: every document and folder path equal to `from` or under `from/` moves to
   * `to`, in one transaction. Returns how many documents and folders moved. A record whose new
   * path another already holds (a file taken for a new document while its own record still had
   * the old path) stays where it was: the next scan finds its file gone, instead of every cycle
   * failing on the journal's one-record-per-path rule.
   */
  movePathPrefix(from: string, to: string): { documents: number; folders: number } {
    this.documentsChanged();
    return this.transaction(() => {
      const params = { from, to, fromSlash: `${from}/`, len: from.length + 1, stamp: packTime(this.stamp()) };
      const documents = this.sql(
        `
        UPDATE OR IGNORE documents SET path = @to || substr(path, @len), synced_at = @stamp
        WHERE path = @from OR substr(path, 1, length(@fromSlash)) = @fromSlash
      `,
      ).run(params).changes;
      const folders = this.sql(
        `
        UPDATE OR IGNORE folders SET path = @to || substr(path, @len)
        WHERE path = @from OR substr(path, 1, length(@fromSlash)) = @fromSlash
      `,
      ).run(params).changes;
      return { documents, folders };
    });
  }

  // ── base blocks ──────────────────────────────────────────────────────────────────────────────

  /** The document's base blocks in document order (pre-order, siblings by position). */
  getBaseBlocks(docId: string): BaseBlock[] {
    const row = this.sql('SELECT base FROM documents WHERE id = ?').get(packId(docId)) as { base: Buffer | null } | undefined;
    return row?.base ? decodeBase(row.base) : [];
  }

  /** Replaces the document's whole base at once. The document must be recorded first. */
  replaceBaseBlocks(docId: string, blocks: readonly BaseBlock[]): void {
    this.baseReplaced(docId);
    const ordered = orderBlocks(docId, blocks);
    for (const b of ordered) {
      if (!BLOCK_KINDS.includes(b.kind))
        throw new Error(`Base blocks of document ${docId}: block ${b.id} is of kind "${b.kind}", not one of ${BLOCK_KINDS.join(', ')}.`);
    }
    const changed = this.sql('UPDATE documents SET base_count = ?, base = ? WHERE id = ?').run(
      ordered.length,
      ordered.length === 0 ? null : encodeBase(ordered),
      packId(docId),
    ).changes;
    if (changed === 0) throw new Error(`Base blocks of document ${docId}: the journal does not hold that document (record it first).`);
    // Which documents hold whiteboards or media, so their steps find them without decoding every base.
    for (const [prefix, listed] of BLOCK_INDEXES) {
      const ids = ordered.filter(listed).map((b) => b.id);
      if (ids.length > 0) this.setState(`${prefix}${docId}`, ids);
      else this.deleteState(`${prefix}${docId}`);
    }
  }

  /** The whiteboard blocks of each document whose base holds any, by document id. */
  documentsWithWhiteboards(): Map<string, string[]> {
    return new Map(Object.entries(this.statesWithPrefix<string[]>(WHITEBOARDS_OF)));
  }

  /** The media blocks (image, video, file, drawing) of each document whose base holds any, by document id. */
  documentsWithMedia(): Map<string, string[]> {
    return new Map(Object.entries(this.statesWithPrefix<string[]>(MEDIA_OF)));
  }

  /** The media blocks of one document's base (documentsWithMedia, for one document). */
  mediaBlocksOf(docId: string): string[] {
    return this.getState<string[]>(`${MEDIA_OF}${docId}`) ?? [];
  }

  /** The blocks of each document whose base links a `.md` file, by document id (the documents a move of a file may relink). */
  documentsWithLinks(): Map<string, string[]> {
    return new Map(Object.entries(this.statesWithPrefix<string[]>(LINKS_OF)));
  }

  /** The blocks of each document whose base may link a block inside a document, by document id (the documents the anchors are read from). */
  documentsWithAnchorLinks(): Map<string, string[]> {
    return new Map(Object.entries(this.statesWithPrefix<string[]>(ANCHOR_LINKS_OF)));
  }

  /**
   * Bases this connection replaced or removed, each with the count of such writes at its last one:
   * what a step that read every base once needs to read again. Kept in memory only (a write rolled
   * back still counts: reading a base once more is harmless).
   */
  private baseWrites = 0;
  private readonly baseWrittenAt = new Map<string, number>();
  private baseReplaced(docId: string): void {
    this.baseWrites++;
    this.baseWrittenAt.set(docId, this.baseWrites);
  }

  /** How many times this connection replaced or removed a base: it moved when any did. */
  baseGeneration(): number {
    return this.baseWrites;
  }

  /** The documents whose base this connection replaced or removed after generation `gen`. */
  basesReplacedSince(gen: number): string[] {
    return [...this.baseWrittenAt].filter(([, at]) => at > gen).map(([id]) => id);
  }

  /** How many base blocks one document (or, without an id, the whole journal) holds. */
  countBaseBlocks(docId?: string): number {
    const row =
      docId === undefined
        ? (this.sql('SELECT coalesce(sum(base_count), 0) AS n FROM documents').get() as { n: number })
        : (this.sql('SELECT base_count AS n FROM documents WHERE id = ?').get(packId(docId)) as { n: number } | undefined);
    return row?.n ?? 0;
  }

  // ── folders ──────────────────────────────────────────────────────────────────────────────────

  getFolder(id: string): FolderRecord | undefined {
    const row = this.sql('SELECT * FROM folders WHERE id = ?').get(id) as FolderRow | undefined;
    return row && toFolder(row);
  }

  /** Every folder, by path (so a parent comes before its subfolders). */
  listFolders(): FolderRecord[] {
    return (this.sql('SELECT * FROM folders ORDER BY path').all() as FolderRow[]).map(toFolder);
  }

  upsertFolder(folder: FolderRecord): void {
    this.sql(
      `
      INSERT INTO folders (id, name, parent_id, path, document_count) VALUES (@id, @name, @parentId, @path, @documentCount)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, parent_id = excluded.parent_id, path = excluded.path,
        document_count = excluded.document_count
    `,
    ).run(folder);
  }

  deleteFolder(id: string): boolean {
    return this.sql('DELETE FROM folders WHERE id = ?').run(id).changes > 0;
  }

  // ── the last listing ─────────────────────────────────────────────────────────────────────────

  /** Replaces the remembered listing with a new one, whole. */
  replaceListing(takenAt: string, items: Iterable<readonly [string, ListingEntry]> | ReadonlyMap<string, ListingEntry>): void {
    const next: ReadonlyMap<string, ListingEntry> = items instanceof Map ? items : new Map(items);
    const print = listingPrint(next);
    this.transaction(() => {
      // The same listing as the one recorded (an idle poll): only its time is written, not the rows.
      // Known by the fingerprint written with the rows (and their count), or else by the rows
      // themselves; never by a copy in memory, which an enclosing transaction that rolled back would
      // have left ahead of the file.
      const printed = this.getState<string>(LISTING_PRINT) === print && (this.sql('SELECT count(*) FROM listing').pluck().get() as number) === next.size;
      if (!printed && !sameListing(this.listingRows(), next)) {
        this.sql('DELETE FROM listing').run();
        const insert = this.sql('INSERT INTO listing (doc_id, title, last_modified_at) VALUES (?, ?, ?)');
        for (const [id, e] of next) insert.run(id, e.title, e.lastModifiedAt);
      }
      if (!printed) this.setState(LISTING_PRINT, print);
      this.sql('INSERT INTO listing_meta (one, taken_at) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET taken_at = excluded.taken_at').run(takenAt);
    });
  }

  private listingRows(): Map<string, ListingEntry> {
    const rows = this.sql('SELECT doc_id, title, last_modified_at FROM listing ORDER BY doc_id').all() as Array<{
      doc_id: string;
      title: string;
      last_modified_at: string | null;
    }>;
    return new Map(rows.map((r) => [r.doc_id, { title: r.title, lastModifiedAt: r.last_modified_at }]));
  }

  /** Whether a listing was ever recorded (readListing without reading its rows: one per document). */
  hasListing(): boolean {
    return this.sql('SELECT 1 FROM listing_meta WHERE one = 1').get() !== undefined;
  }

  /** The last listing recorded, or null before the first one. */
  readListing(): Listing | null {
    const meta = this.sql('SELECT taken_at FROM listing_meta WHERE one = 1').get() as { taken_at: string } | undefined;
    if (!meta) return null;
    return { takenAt: meta.taken_at, items: this.listingRows() };
  }

  // ── intents ──────────────────────────────────────────────────────────────────────────────────

  /** Records an operation before its request is sent; returns the id to clear once the response is recorded. */
  addIntent(intent: IntentInput): number {
    const result = this.sql('INSERT INTO intents (doc_id, op, payload, created_at) VALUES (?, ?, ?, ?)').run(
      intent.docId,
      intent.op,
      toJson(intent.payload, `the payload of intent ${intent.op}`),
      this.stamp(),
    );
    return Number(result.lastInsertRowid);
  }

  clearIntent(id: number): boolean {
    return this.sql('DELETE FROM intents WHERE id = ?').run(id).changes > 0;
  }

  /** Operations whose outcome was never recorded (the daemon stopped between request and record), oldest first. */
  pendingIntents(): Intent[] {
    return (this.sql('SELECT * FROM intents ORDER BY id').all() as IntentRow[]).map(toIntent);
  }

  // ── conflicts ────────────────────────────────────────────────────────────────────────────────

  addConflict(conflict: ConflictInput): number {
    const result = this.sql(
      `
      INSERT INTO conflicts (doc_id, path, copy_path, created_at, resolved_at, details) VALUES (?, ?, ?, ?, NULL, ?)
    `,
    ).run(conflict.docId, conflict.path, conflict.copyPath, conflict.createdAt ?? this.stamp(), toJson(conflict.details, 'conflict details'));
    return Number(result.lastInsertRowid);
  }

  getConflict(id: number): ConflictRecord | undefined {
    const row = this.sql('SELECT * FROM conflicts WHERE id = ?').get(id) as ConflictRow | undefined;
    return row && toConflict(row);
  }

  /** Conflicts, oldest first; only the unresolved ones unless `includeResolved`. */
  listConflicts(opts: { includeResolved?: boolean } = {}): ConflictRecord[] {
    const sql = opts.includeResolved ? 'SELECT * FROM conflicts ORDER BY id' : 'SELECT * FROM conflicts WHERE resolved_at IS NULL ORDER BY id';
    return (this.sql(sql).all() as ConflictRow[]).map(toConflict);
  }

  /** Marks a conflict resolved; false when it does not exist or was resolved already. */
  resolveConflict(id: number, resolvedAt: string = this.stamp()): boolean {
    return this.sql('UPDATE conflicts SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL').run(resolvedAt, id).changes > 0;
  }

  /**
   * Forgets everything the journal knows of the mirror and the space (documents and their bases,
   * folders, the listing, intents, file stats, moves, every state but the daemon's status and
   * `keep`), for a mirror adopted anew. The history and the conflicts stay: they are the user's.
   */
  forgetMirror(keep: readonly string[] = []): void {
    this.transaction(() => {
      for (const table of ['documents', 'folders', 'listing', 'listing_meta', 'intents', 'file_stats', 'moved_documents'])
        this.db.prepare(`DELETE FROM ${table}`).run();
      const kept = new Set(keep);
      for (const key of Object.keys(this.allState())) if (!key.startsWith('status.') && !kept.has(key)) this.deleteState(key);
    });
    this.documentsCache = null;
  }

  // ── key/value state ──────────────────────────────────────────────────────────────────────────

  getState<T = unknown>(key: string): T | undefined {
    const row = this.sql('SELECT value FROM state WHERE key = ?').get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  setState(key: string, value: unknown): void {
    this.sql('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, toJson(value, `state ${key}`));
  }

  deleteState(key: string): boolean {
    return this.sql('DELETE FROM state WHERE key = ?').run(key).changes > 0;
  }

  /** The state values whose key starts with `prefix`, by the rest of their key. */
  statesWithPrefix<T = unknown>(prefix: string): Record<string, T> {
    const rows = this.sql('SELECT key, value FROM state WHERE substr(key, 1, length(?)) = ? ORDER BY key').all(prefix, prefix) as Array<{
      key: string;
      value: string;
    }>;
    return Object.fromEntries(rows.map((r) => [r.key.slice(prefix.length), JSON.parse(r.value) as T]));
  }

  /** Every state value, by key. */
  allState(): Record<string, unknown> {
    const rows = this.sql('SELECT key, value FROM state ORDER BY key').all() as Array<{ key: string; value: string }>;
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  // ---- history: versions the sync replaced or removed, on either side ----

  addHistory(h: HistoryInput): number {
    this.historyCache = null;
    const blocks = h.blocks === null ? null : encodeBlocks(h.blocks);
    const r = this.sql(
      `INSERT INTO history (at, side, doc_id, path, cause, request, version_file, size, blocks, added, removed, edited)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      packTime(h.at),
      h.side,
      packId(h.docId),
      h.path,
      h.cause,
      h.request,
      packVersionFile(h.versionFile, h.path),
      // A local version weighs its file, and the blocks kept beside it; a remote one its blocks.
      blocks === null ? h.size : h.versionFile !== null ? h.size + blocks.length : blocks.length,
      blocks,
      h.summary.added,
      h.summary.removed,
      h.summary.edited,
    );
    return Number(r.lastInsertRowid);
  }

  /** Versions, newest first: of one file (its path then), a document's, or all. */
  listHistory(filter: { path?: string; docId?: string } = {}): HistoryRecord[] {
    const rows =
      filter.path !== undefined || filter.docId !== undefined
        ? this.sql('SELECT * FROM history WHERE path = ? OR doc_id = ? ORDER BY id DESC').all(filter.path ?? null, packId(filter.docId ?? null))
        : this.sql('SELECT * FROM history ORDER BY id DESC').all();
    return (rows as HistoryRow[]).map(toHistory);
  }

  /** Oldest first, without the blocks: what retention weighs. */
  historySizes(): Array<{ id: number; at: string; size: number; versionFile: string | null }> {
    return (
      this.sql('SELECT id, at, size, path, version_file FROM history ORDER BY id').all() as Array<{
        id: number;
        at: string | Buffer;
        size: number;
        path: string;
        version_file: string | null;
      }>
    ).map((r) => ({ id: r.id, at: unpackTime(r.at), size: r.size, versionFile: unpackVersionFile(r.version_file, r.path) }));
  }

  /** How many versions, their weight and the oldest one's time: what retention needs to know that nothing is due. */
  historyTotals(): HistoryTotals {
    const version = this.dataVersion();
    if (this.historyCache?.version === version) return this.historyCache.totals;
    const totals = this.sql('SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM history').get() as { count: number; bytes: number };
    const oldest = this.sql('SELECT at FROM history ORDER BY id LIMIT 1').pluck().get() as string | Buffer | undefined;
    const all: HistoryTotals = { ...totals, oldestAt: oldest === undefined ? null : unpackTime(oldest) };
    if (!this.db.inTransaction) this.historyCache = { version, totals: all };
    return all;
  }

  deleteHistory(ids: readonly number[]): void {
    this.historyCache = null;
    this.transaction(() => {
      for (const id of ids) this.sql('DELETE FROM history WHERE id = ?').run(id);
    });
  }

  counts(): JournalCounts {
    return this.sql(
      `
      SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM folders) AS folders,
             (SELECT coalesce(sum(base_count), 0) FROM documents) AS baseBlocks, (SELECT count(*) FROM intents) AS pendingIntents,
             (SELECT count(*) FROM conflicts WHERE resolved_at IS NULL) AS openConflicts
    `,
    ).get() as JournalCounts;
  }

  // ── the stat cache ───────────────────────────────────────────────────────────────────────────

  /**
   * The recorded stat and hash of one file. Asked file by file (a full scan of 50,000 files asks
   * 50,000 times, some 0.2 s): no list of every entry is held while the scan runs.
   */
  getFileStat(path: string): FileStatRecord | undefined {
    // safeIntegers: nanosecond times do not fit a double; every integer comes back as a bigint.
    const row = this.sql(`SELECT path, size, mtime_ns, ctime_ns, ino, ${hashColumn('hash')}, recorded_ns FROM file_stats WHERE path = ?`)
      .raw()
      .safeIntegers()
      .get(path) as FileStatRow | undefined;
    return row && fileStatOf(row);
  }

  /** Every file's recorded stat and hash, by path. */
  listFileStats(): Map<string, FileStatRecord> {
    const rows = this.sql(`SELECT path, size, mtime_ns, ctime_ns, ino, ${hashColumn('hash')}, recorded_ns FROM file_stats`)
      .raw()
      .safeIntegers()
      .all() as FileStatRow[];
    return new Map(rows.map((r) => [r[0], fileStatOf(r)]));
  }

  /** The paths with a recorded stat, one at a time. */
  *fileStatPaths(): IterableIterator<string> {
    yield* this.sql('SELECT path FROM file_stats').pluck().iterate() as IterableIterator<string>;
  }

  /** Records stats (replacing a path's earlier one) and forgets `gone` paths, in one transaction. */
  updateFileStats(put: readonly FileStatRecord[], gone: readonly string[] = []): void {
    if (put.length === 0 && gone.length === 0) return;
    this.transaction(() => {
      const insert = this.sql(`
        INSERT INTO file_stats (path, size, mtime_ns, ctime_ns, ino, hash, recorded_ns) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns,
          ino = excluded.ino, hash = excluded.hash, recorded_ns = excluded.recorded_ns
      `);
      for (const f of put) insert.run(f.path, f.size, packNs(f.mtimeNs), packNs(f.ctimeNs), packNs(f.ino), packHash(f.hash), packNs(f.recordedNs));
      const remove = this.sql('DELETE FROM file_stats WHERE path = ?');
      for (const p of gone) remove.run(p);
    });
  }
}

type FileStatRow = [string, bigint, StoredNs, StoredNs, StoredNs, string | Buffer, StoredNs];

function fileStatOf([path, size, mtime, ctime, ino, hash, recorded]: FileStatRow): FileStatRecord {
  return Object.freeze({
    path,
    size: Number(size),
    mtimeNs: unpackNs(mtime),
    ctimeNs: unpackNs(ctime),
    ino: unpackNs(ino),
    hash: unpackHash(hash)!,
    recordedNs: unpackNs(recorded),
  });
}
