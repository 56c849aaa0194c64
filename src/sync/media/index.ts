// Media (image, video, file blocks) downloaded beside their documents, linked from their files.
export { syncMedia, mediaRecordOf, MEDIA_BASE, type MediaRecord, type MediaSyncResult } from './syncMedia.js';
export { uploadDialect } from './uploadDialect.js';
export { markUploadsPending } from './uploadReferences.js';
export { resolveUploads, isUploadIntent, type UploadResolution } from './resolveUploads.js';
