// The sync engine's shell, by kind of content (docs/architecture.md): context/ (what every slice
// may use), the slices (documents/, links/, media/, collections/, whiteboards/, tasks/, versions/),
// cycle/ (the slices in order, and the cycle's report), daemon/ (the watcher and the poll).
export { DEFAULT_SETTINGS, type PullClient, type PullProgress, type SyncContext, type SyncSettings } from './context/index.js';
export { openSyncSession, journalPath, type SyncSession, type SyncSessionOptions } from './context/index.js';
export { type PullCycleOptions, type PullCycleResult, type LocalPending } from './documents/index.js';
export { pushLocal, runPull } from './cycle/index.js';
export { readPullPlan, type PullReading } from './documents/index.js';
export type { PullPlan, DocumentStep, FolderStep } from '../core/pull/PullPlan.js';
export { listRemote, type RemoteSnapshot } from './documents/index.js';
export { detectLocalChanges } from './documents/index.js';
export type { LocalChange } from '../core/pull/PullPlan.js';
export { detectRemoteChanges, type RemoteChanges } from '../core/pull/detectRemoteChanges.js';
export { pullDocument, type PullOutcome } from './documents/index.js';
export { applyLayout, type LayoutOutcome, type Move } from './documents/index.js';
export { checkPullSafety, type SafetyRefusal } from '../core/push/safety.js';
export { PURGED_DIR } from './documents/index.js';
export * from '../core/remoteTypes.js';
export { syncOnce, type SyncOnceOptions, type SyncOnceResult } from './cycle/index.js';
export { adoptionPending, describeAdoption, planCycle, type AdoptionResult, type CyclePlan } from './cycle/index.js';
export { applyRevert, planRevert, type RevertContext, type RevertItem } from './cycle/index.js';
export { findLocalChanges, findRemoteChanges, type LocalPendingChange, type PendingLocalScan, type RemotePendingChange } from './cycle/index.js';
export {
  lookedAt,
  readLastChange,
  readLastLook,
  readProblems,
  readRecentReports,
  recordReport,
  pushSaved,
  REPORT_KEYS,
  type StandingProblem,
} from './cycle/index.js';
export { readTaskFilesState, syncTaskFiles, type TaskFilesResult } from './tasks/index.js';
export { LISTING_MAX_AGE_MS, type PushOptions, type PushResult } from './documents/index.js';
export { readHeldBack, type HeldBackFile } from './context/index.js';
export { readApprovals, recordApprovals, type Approvals, type DeletesApproval, type FileApproval } from './context/index.js';
export { restoreVersion, versionsOf } from './versions/index.js';
export { runDaemon, FATAL_CODES, type DaemonHandle, type DaemonOptions } from './daemon/index.js';
export { afterReport, saveStats, GIT_PUSH_STATE, GitPusher, pushProblem, type GitPushState } from './daemon/index.js';
export { PROBE_MAX_MS, type OutageEvent } from './daemon/index.js';
export type { PushPlan, DocumentTask } from './documents/index.js';
export type { PushOutcome } from './documents/index.js';
export { readDownloadRetries } from './media/index.js';
export { summarizePullPlan, type PullPlanSummary } from '../core/pull/PullPlan.js';
