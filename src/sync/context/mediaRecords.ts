// What the journal keeps of each media block's asset (downloaded, or uploaded from the mirror): the
// media step writes it; the pull links a file's assets from it and the push sends an edited line
// with the signed URL it holds.
import type { MediaLink } from '../../core/media/linkAssets.js';
import type { Journal } from '../../journal/index.js';

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
