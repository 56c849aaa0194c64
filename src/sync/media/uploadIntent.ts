// The intent an upload writes before `POST /upload` (uploadReferences, reuploadAsset) and how it is
// read back (resolveUploads): an upload whose answer was lost is found again, never sent twice.
import type { UploadTarget } from '../../core/media/uploadCandidates.js';
import { isSpacesyncError, type SpacesyncError } from '../../errors.js';
import type { Intent, Journal } from '../../journal/index.js';

/** The intent's operation. */
export const UPLOAD_OP = 'POST /upload';

/** What an upload's intent records: enough to recognise the block it made and to record it as its answer would have. */
export interface UploadPayload {
  /** The document's file, and the asset file uploaded (relative to the root). */
  path: string;
  file: string;
  target: UploadTarget;
  /** sha256 and length of the bytes sent. */
  sha256: string;
  size: number;
  type: 'image' | 'video' | 'file';
  /** A new reference: its line as the file has it, the asset's name, whether the sync made the copy, its parent and the sibling it follows. */
  markdown?: string;
  name?: string;
  own?: boolean;
  parentId?: string | null;
  after?: string | null;
  /** A replaced asset: the block the upload replaces (deleted once the new one is there). */
  replaces?: string;
}

/** The payload of an upload's intent; null for another intent. */
export const payloadOf = (i: Intent): UploadPayload | null => {
  const p = i.payload as Partial<UploadPayload> | null;
  return i.op === UPLOAD_OP && i.docId !== null && p && typeof p.sha256 === 'string' && typeof p.size === 'number' && p.target ? (p as UploadPayload) : null;
};

/** An upload intent resolveUploads resolves (one written before the file's hash was recorded is merged as before). */
export const isUploadIntent = (i: Intent): boolean => payloadOf(i) !== null;

/** Whether an upload of the document is unconfirmed: nothing more of it is uploaded until it is resolved. */
export const hasPendingUpload = (journal: Journal, docId: string): boolean => journal.pendingIntents().some((i) => i.docId === docId && isUploadIntent(i));

/** The request may have been applied before it failed (a reset, a timeout, a 5xx on a POST). */
export const mayHaveLanded = (e: unknown): boolean => isSpacesyncError(e, 'maybe_applied') || (e as SpacesyncError).details?.mayHaveApplied === true;
