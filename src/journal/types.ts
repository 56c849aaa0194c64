// The records the journal holds: what both sides last agreed on (base), per document, folder and
// block, plus the bookkeeping that makes a crash harmless (intents) and the conflicts kept.
import type { BaseBlock, BlockKind } from '../core/types.js';
import { typesWhere } from '../dialect/index.js';

/** Where a document lives in the space. `folder` means a user folder named by `folderId`. */
export type DocumentLocation = 'unsorted' | 'templates' | 'trash' | 'daily_notes' | 'folder';

export interface DocumentRecord {
  id: string;
  /** Posix path of the file, relative to the mirror root. Unique: one file holds one document. */
  path: string;
  title: string;
  location: DocumentLocation;
  /** Set exactly when `location` is `folder`. */
  folderId: string | null;
  dailyNoteDate: string | null;
  /** The remote `lastModifiedAt` seen when the base was recorded. */
  remoteModifiedAt: string | null;
  createdAt: string | null;
  /** sha256 of the file as last written or read by the daemon; null when no file was written yet. */
  fileHash: string | null;
  /** When this record last changed (ISO 8601). */
  syncedAt: string;
}

/** A document to record; `syncedAt` defaults to the journal's clock. */
export type DocumentInput = Omit<DocumentRecord, 'syncedAt'> & { syncedAt?: string };

export type { BaseBlock, BlockKind };

export const BLOCK_KINDS: readonly BlockKind[] = ['block', 'page', 'card', 'readonly'];

export interface FolderRecord {
  id: string;
  name: string;
  parentId: string | null;
  /** Posix path of the directory, relative to the mirror root. */
  path: string;
  documentCount: number;
}

/** One document as the last `GET /documents?fetchMetadata=true` showed it. */
export interface ListingEntry {
  title: string;
  lastModifiedAt: string | null;
}

export interface Listing {
  takenAt: string;
  items: Map<string, ListingEntry>;
}

/** An operation sent (or about to be sent) to the service and not yet confirmed. */
export interface Intent {
  id: number;
  /** null for operations that create a document (no id yet). */
  docId: string | null;
  op: string;
  payload: unknown;
  createdAt: string;
}

export interface IntentInput {
  docId: string | null;
  op: string;
  payload: unknown;
}

export interface ConflictRecord {
  id: number;
  docId: string;
  /** The document's file. */
  path: string;
  /** The conflict copy holding the local version. */
  copyPath: string;
  createdAt: string;
  resolvedAt: string | null;
  details: unknown;
}

export interface ConflictInput {
  docId: string;
  path: string;
  copyPath: string;
  details: unknown;
  createdAt?: string;
}

/** Row counts for `spacesync status`. */
export interface JournalCounts {
  documents: number;
  folders: number;
  baseBlocks: number;
  pendingIntents: number;
  openConflicts: number;
}

/** What a version differs by from what replaced it, in blocks. */
export interface HistorySummary {
  added: number;
  removed: number;
  edited: number;
}

/** A block as the space held it before the push changed it (the remote side's history): a base block without its hash. */
export type HistoryBlock = Omit<BaseBlock, 'hash' | 'cardLayout'> & {
  cardLayout?: string;
  /** What the push did to it: absent when it stayed as it was. */
  change?: 'edited' | 'deleted';
};

export interface HistoryInput {
  at: string;
  /** `local`: a file's bytes the sync replaced or removed; `remote`: blocks the push deleted or overwrote. */
  side: 'local' | 'remote';
  docId: string | null;
  /** The document file's path (relative to the root) when the version was taken. */
  path: string;
  /** Why: `merge` (a pull over an edit), `conflict`, `move`, `restore`, `push`. */
  cause: string;
  /** The requests that changed the blocks (remote side). */
  request: string | null;
  /** The saved bytes under `.spacesync/versions/` (local side). */
  versionFile: string | null;
  /** Bytes kept, for retention: the version file's; for blocks, the journal records what their encoding takes. */
  size: number;
  /**
   * The blocks the push edited or deleted, as the space held them, a deleted block's subtree with
   * it (remote side); a version recorded before the journal's schema 4 holds the whole document.
   * Local side: the document's blocks with fields their lines do not show, as the base held them.
   */
  blocks: HistoryBlock[] | null;
  summary: HistorySummary;
}

export interface HistoryRecord extends HistoryInput {
  id: number;
}

/** The whole history in three figures (retention's first look). */
export interface HistoryTotals {
  count: number;
  /** Sum of the versions' sizes, as retention weighs them. */
  bytes: number;
  /** The oldest version's time; null when there is none. */
  oldestAt: string | null;
}

/** A file's stat when its content hash was taken (the stat cache). */
export interface FileStatRecord {
  path: string;
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  /** sha256 of the bytes read right after that stat. */
  hash: string;
  /** Wall clock (ns) when the stat was taken: a file modified too close before it is not trusted. */
  recordedNs: bigint;
}

// The state indexes of a document's base blocks (prefix → which blocks it lists), so the steps that
// need whiteboards, media or links find the documents holding them without decoding every base.
/** State key prefix: a document's whiteboard block ids. */
export const WHITEBOARDS_OF = 'whiteboards-of:';
/** State key prefix: the media blocks (image, video, file, drawing) of a document, so the media step finds them. */
export const MEDIA_OF = 'media-of:';
/** State key prefix: the blocks of a document whose markdown links a `.md` file (links between documents, shown relatively). */
export const LINKS_OF = 'links-of:';
/** State key prefix: the blocks of a document whose markdown may link a block inside a document (`block://`, or a `.md#` anchor). */
export const ANCHOR_LINKS_OF = 'anchor-links-of:';

const ofTypes = (types: ReadonlySet<string>) => (b: BaseBlock) => types.has(b.type);

export const BLOCK_INDEXES: ReadonlyArray<readonly [string, (b: BaseBlock) => boolean]> = [
  [WHITEBOARDS_OF, ofTypes(new Set(['whiteboard']))],
  [MEDIA_OF, ofTypes(typesWhere((t) => t.downloaded))],
  [LINKS_OF, (b) => b.markdown.includes('](') && b.markdown.includes('.md')],
  [ANCHOR_LINKS_OF, (b) => b.markdown.includes('](') && (b.markdown.includes('block://') || b.markdown.includes('.md#'))],
];
