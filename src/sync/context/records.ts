// What the journal keeps of content beside the blocks, read by several slices. Each media block's
// asset (downloaded, or uploaded from the mirror): the media step writes it; the pull links a file's
// assets from it and the push sends an edited line with the signed URL it holds. The rows of the
// collection tables as last synced (core/collections/collectionRowsOf): collection id → its
// document, the base block hash and the item id of each row.
import type { CollectionRows } from '../../core/collections/collectionRowsOf.js';
import type { MediaLink } from '../../core/media/linkAssets.js';
import type { Journal } from '../../journal/index.js';
import type { SyncContext } from './SyncContext.js';

/** State key prefix: the downloaded asset of a media block. */
export const MEDIA_BASE = 'media:';

/** The journal's record of one media block's asset. */
export interface MediaRecord extends MediaLink {
  docId: string;
  /** The asset file, relative to the root, where the sync last put it. */
  file: string;
  /** sha256 of the bytes written. */
  hash: string;
  /** The signed URL last read for the block: what an edit of the block's line sends in place of the local link. */
  signedUrl: string;
  /** The file was the user's, uploaded from the mirror: it stays when its block goes. */
  uploaded?: true;
  /** The file's size and modification time when its hash was taken: a replaced file is told by its stat. */
  size?: number;
  mtimeMs?: number;
}

/** The media record of a block, for linking (`linkAssets`) and for sending an edit of its line. */
export const mediaRecordOf = (journal: Journal) => (id: string) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`);

const ROWS_KEY = 'collectionRows';

export type RecordedRows = CollectionRows & { doc: string };

/** Every recorded collection, by id. */
export function readCollectionRows(ctx: Pick<SyncContext, 'journal'>): Map<string, RecordedRows> {
  return new Map(Object.entries(ctx.journal.getState<Record<string, RecordedRows>>(ROWS_KEY) ?? {}));
}

/** Records `doc`'s collections (replacing what was recorded for it); writes nothing when nothing changes. */
export function recordCollectionRows(ctx: Pick<SyncContext, 'journal'>, doc: string, rows: readonly CollectionRows[]): void {
  const all = readCollectionRows(ctx);
  const before = JSON.stringify(Object.fromEntries(all));
  for (const [id, r] of all) if (r.doc === doc) all.delete(id);
  for (const r of rows) all.set(r.id, { ...r, doc });
  const after = Object.fromEntries(all);
  if (JSON.stringify(after) !== before) ctx.journal.setState(ROWS_KEY, after);
}
