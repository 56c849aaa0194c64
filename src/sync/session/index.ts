// What a sync session shares with every stage: the context, the session (lock, journal), the stop
// signal, the directory helpers, the pull counters, the stat cache and the resolution of the
// requests an earlier run left unanswered. Below pull/, push/, versions/, cycle/ and daemon/.
export { StatCache } from './StatCache.js';
export { DEFAULT_SETTINGS, type PullClient, type PullProgress, type SyncContext, type SyncSettings } from './SyncContext.js';
export { ADOPTION_ORPHANS, readHeldBack, readOrphans, recordHeldBack, type HeldBackFile } from './heldBackState.js';
export { readCollectionRows, recordCollectionRows, type RecordedRows } from './collectionRows.js';
export { isPerDocumentError } from './isPerDocumentError.js';
export { isStopped, stoppedBeforeStart } from './isStopped.js';
export { ensureDirectory, isDirectory, moveDirectory, pathExists } from './moveDirectory.js';
export { ADOPTION_PENDING, journalPath, openSyncSession, type SyncSession, type SyncSessionOptions } from './openSyncSession.js';
export { readCounts, readFullScanAt, readUnplaceable, shiftCounts, writeCounts, writeFullScanAt, writeUnplaceable } from './pullState.js';
export { noteReadOnlyBlocks, readOnlyBlocks } from './readOnlyBlocks.js';
export { releaseMemory } from './releaseMemory.js';
export { resolveIntents } from './resolveIntents.js';
export { UNSENT } from './unsent.js';
export { formerPathsOf, linkTargetsOf, ownMarkersOf, recordTypedAnchors } from './linkTargetsOf.js';
export { relinkAnchors } from './relinkAnchors.js';
export { relinkDocuments, type Move as DocumentMove } from './relinkDocuments.js';
export { carryAssetFolders } from './carryAssetFolders.js';
