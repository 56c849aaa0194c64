// What every slice may use and what the cycle hands each one: the context, the session (lock,
// journal, client, ownership), the stop signal, the held-back files, the directory helpers, the
// stat cache, the assets' downloads, the journal's views that several slices read (link targets,
// media records, collection rows, the saving of a replaced file's version, a restore's note for the
// push) and the steps one slice runs inside another's (sliceSteps). It imports no slice.
export { StatCache, recordOwnWrites, statOwnWrite, type OwnWrite } from './StatCache.js';
export {
  deletesApproved,
  deletesKey,
  dropStaleApprovals,
  fileApproved,
  readApprovals,
  recordApprovals,
  useApprovals,
  type Approvals,
  type DeletesApproval,
  type FileApproval,
} from './approvals.js';
export { DEFAULT_SETTINGS, type PullProgress, type SyncContext, type SyncSettings } from './SyncContext.js';
export { assetDownloadsOf, type AssetDownloads, type FetchedAsset } from './AssetDownloads.js';
export { assetExtension, type Fetched } from './fetchAsset.js';
export { ADOPTION_ORPHANS, readBackupKept, readHeldBack, readOrphans, recordBackupKept, recordHeldBack, UNSENT, type HeldBackFile } from './heldBackState.js';
export { isPerDocumentError, isStopped, stoppedBeforeStart } from './stops.js';
export {
  ANCHORS,
  ANCHORS_PENDING,
  FORMER_ANCHORS,
  FORMER_PATHS,
  formerPathsOf,
  linkTargetsOf,
  notedMoves,
  ownMarkersOf,
  RELINK_PENDING,
  RELINK_PENDING_FROM,
  recordTypedAnchors,
} from './linkTargetsOf.js';
export { MEDIA_BASE, mediaRecordOf, readCollectionRows, recordCollectionRows, type MediaRecord } from './records.js';
export { ensureDirectory, isDirectory, moveDirectory, pathExists } from './moveDirectory.js';
export { ADOPTION_PENDING, openSyncSession, type SyncSession } from './openSyncSession.js';
export { releaseMemory } from './releaseMemory.js';
export { forgetRestoredBlocks, noteRestoredBlocks, restoredBlocks } from './restoredBlocks.js';
export { saveLocalVersion } from './saveLocalVersion.js';
export type { ArrivedAssets, DrawInput, DrawScene, PullSteps, PushSteps } from './sliceSteps.js';
export { uploadDialect } from './uploadDialect.js';
export { unpackVersion, VERSIONS_DIR } from './versionsDir.js';
