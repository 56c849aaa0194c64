// Media (image, video, file blocks) downloaded beside their documents, linked from their files.
export { syncMedia, prefetchAssets } from './syncMedia.js';
export { applyDownloads, applyBesidePull } from './applyBesidePull.js';
export { readDownloadRetries, type MediaSyncResult } from './mediaRecord.js';
export { markUploadsPending } from './uploadReferences.js';
export { resolveUploads } from './resolveUploads.js';
export { isUploadIntent } from './uploadIntent.js';
export { awaitNewAssets } from './awaitNewAssets.js';
export { carryAssetFolders, carryMovedAssetFolders } from './carryAssetFolders.js';
export { mediaPart } from './report.js';
