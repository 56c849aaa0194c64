// What the journal keeps of media blocks (their downloaded or uploaded assets, the downloads that
// wait for a retry) and what the media step reports: shared by the steps of src/sync/media.
import type { MediaLink } from '../../core/media/linkAssets.js';
import type { DownloadRetry } from '../../core/media/downloadRetry.js';
import type { Journal } from '../../journal/index.js';

/** State key prefix: the downloaded asset of a media block. */
export const MEDIA_BASE = 'media:';
/** State key prefix: a media block whose asset was not downloaded, and when it is tried again. */
export const MEDIA_RETRY = 'media-retry:';

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

export interface MediaSyncResult {
  /** Asset files written (new, or new bytes). */
  downloaded: string[];
  /** Documents whose file now links its assets. */
  linked: string[];
  /** Assets not downloaded, and why (tried again after a backoff). */
  failed: Array<{ blockId: string; file: string; message: string }>;
  /** Blocks whose asset waits: for the retry after a failure, or for assets.maxMiB to hold it. */
  waiting: string[];
  /** Asset files removed with their block. */
  removed: string[];
  /** Local files uploaded as new blocks (media up). */
  uploaded: string[];
  /** Local files referenced and not uploaded, and why. */
  notUploaded: Array<{ path: string; file: string; message: string }>;
}

export const emptyResult = (): MediaSyncResult => ({ downloaded: [], linked: [], failed: [], waiting: [], removed: [], uploaded: [], notUploaded: [] });

/** The media record of a block, for linking (`linkAssets`) and for sending an edit of its line. */
export const mediaRecordOf = (journal: Journal) => (id: string) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`);

/** The blocks whose asset waits to be downloaded again, for `spacesync status`. */
export function readDownloadRetries(journal: Journal): DownloadRetry[] {
  return Object.values(journal.statesWithPrefix<DownloadRetry>(MEDIA_RETRY));
}
