// The daemon's shell: the pull (list → layout → pull → purge → record), the push (scan → decide →
// plan → send → record), one full cycle of both, and the daemon (watcher + poll).
export { DEFAULT_SETTINGS, type PullClient, type PullProgress, type SyncContext, type SyncSettings } from './SyncContext.js';
export { openSyncSession, journalPath, type SyncSession, type SyncSessionOptions } from './openSyncSession.js';
export { runCycle, type CycleOptions, type CycleResult, type LocalPending } from './runCycle.js';
export { describePull, summarizePullPlan, type PullDryRun, type PullPlanSummary } from './describePull.js';
export { readPullPlan, type PullReading } from './readPullPlan.js';
export type { PullPlan, DocumentStep, FolderStep } from '../core/PullPlan.js';
export { listRemote, type RemoteSnapshot } from './listRemote.js';
export { detectLocalChanges } from './detectLocalChanges.js';
export type { LocalChange } from '../core/PullPlan.js';
export { detectRemoteChanges, type RemoteChanges } from '../core/detectRemoteChanges.js';
export { pullDocument, type PullOutcome } from './pullDocument.js';
export { applyLayout, type LayoutOutcome, type Move } from './applyLayout.js';
export { checkPullSafety, type SafetyRefusal } from '../core/safety.js';
export { PURGED_DIR } from './purgeDocuments.js';
export * from '../core/remoteTypes.js';
export { syncCycle, type SyncCycleResult } from './syncCycle.js';
export { pushLocal, LISTING_MAX_AGE_MS, type PushOptions, type PushResult } from './pushLocal.js';
export { runDaemon, FATAL_CODES, type DaemonHandle, type DaemonOptions } from './daemon.js';
export type { PushPlan, DocumentTask } from './PushPlan.js';
export type { PushOutcome } from './executePlan.js';
