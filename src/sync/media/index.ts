// Media (image, video, file blocks) downloaded beside their documents, linked from their files.
export { syncMedia, prefetchAssets, type SyncMediaOptions } from './syncMedia.js';
export { applyDownloads, applyBesidePull } from './applyBesidePull.js';
export { assetDownloadsOf } from './AssetDownloads.js';
export { readDownloadRetries, mediaRecordOf, MEDIA_BASE, type MediaRecord, type MediaSyncResult } from './mediaRecord.js';
export type { AssetDownloads } from './AssetDownloads.js';
export { uploadDialect } from './uploadDialect.js';
export { markUploadsPending } from './uploadReferences.js';
export { resolveUploads, isUploadIntent, type UploadResolution } from './resolveUploads.js';
export { awaitNewAssets, NEW_ASSETS_WAIT_MS, type ArrivedAssets } from './awaitNewAssets.js';
export { carryAssetFolders } from './carryAssetFolders.js';
export { mediaPart } from './report.js';
export { assetExtension } from './fetchAsset.js';
