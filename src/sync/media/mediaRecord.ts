// What the journal keeps of the downloads that wait for a retry, and what the media step reports:
// shared by the steps of src/sync/media (the assets' records are context/records.ts).
import type { DownloadRetry } from '../../core/media/downloadRetry.js';
import type { Journal } from '../../journal/index.js';

/** State key prefix: a media block whose asset was not downloaded, and when it is tried again. */
export const MEDIA_RETRY = 'media-retry:';

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

/** The blocks whose asset waits to be downloaded again, for `spacesync status`. */
export function readDownloadRetries(journal: Journal): DownloadRetry[] {
  return Object.values(journal.statesWithPrefix<DownloadRetry>(MEDIA_RETRY));
}
