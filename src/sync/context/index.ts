// What every slice may use and what the cycle hands each one: the context, the session (lock,
// journal, client, ownership), the stop signal, the held-back files, the directory helpers and the
// stat cache. It imports no slice.
export { StatCache } from './StatCache.js';
export { DEFAULT_SETTINGS, type PullClient, type PullProgress, type SyncContext, type SyncSettings } from './SyncContext.js';
export { ADOPTION_ORPHANS, readHeldBack, readOrphans, recordHeldBack, type HeldBackFile } from './heldBackState.js';
export { isPerDocumentError } from './isPerDocumentError.js';
export { isStopped, stoppedBeforeStart } from './isStopped.js';
export { ensureDirectory, isDirectory, moveDirectory, pathExists } from './moveDirectory.js';
export { ADOPTION_PENDING, journalPath, openSyncSession, type SyncSession, type SyncSessionOptions } from './openSyncSession.js';
export { releaseMemory } from './releaseMemory.js';
export { UNSENT } from './unsent.js';
