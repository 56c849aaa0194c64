// The daemon's shell, pull side: one cycle (list → layout → pull → purge → record) and what it needs.
export { DEFAULT_SETTINGS, type PullClient, type PullProgress, type SyncContext, type SyncSettings } from './SyncContext.js';
export { openSyncSession, journalPath, type SyncSession, type SyncSessionOptions } from './openSyncSession.js';
export { runCycle, type CycleOptions, type CycleResult, type LocalPending } from './runCycle.js';
export { describePull, type PullPlan } from './describePull.js';
export { listRemote, type RemoteSnapshot } from './listRemote.js';
export { detectLocalChanges, type LocalChange } from './detectLocalChanges.js';
export { detectRemoteChanges, type RemoteChanges } from './detectRemoteChanges.js';
export { pullDocument, type PullOutcome } from './pullDocument.js';
export { applyLayout, type LayoutOutcome, type Move } from './applyLayout.js';
export { checkPullSafety, type SafetyRefusal } from './checkPullSafety.js';
export { createProgressBar, formatProgress, type ProgressBar } from './progressBar.js';
export { PURGED_DIR } from './purgeDocuments.js';
export * from './remoteTypes.js';
