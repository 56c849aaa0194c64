// The sync engine's shell, by kind of content (docs/architecture.md): context/ (what every slice
// may use), the slices (documents/, links/, media/, collections/, whiteboards/, tasks/, versions/),
// cycle/ (the slices in order, and the cycle's report), daemon/ (the watcher and the poll).
export { DEFAULT_SETTINGS, type PullProgress } from './context/index.js';
export { openSyncSession, type SyncSession } from './context/index.js';
export { pushLocal, runPull } from './cycle/index.js';
export * from '../core/remoteTypes.js';
export { syncOnce } from './cycle/index.js';
export { planCycle, type CyclePlan } from './cycle/index.js';
export { applyRevert, planRevert, type RevertItem } from './cycle/index.js';
export { findLocalChanges, findRemoteChanges, type LocalPendingChange, type RemotePendingChange } from './cycle/index.js';
export { lookedAt, readLastChange, readLastLook, readProblems, readRecentReports, type StandingProblem } from './cycle/index.js';
export { syncTaskFiles } from './tasks/index.js';
export { readHeldBack, type HeldBackFile } from './context/index.js';
export { recordApprovals, type DeletesApproval, type FileApproval } from './context/index.js';
export { restoreVersion, versionsOf } from './versions/index.js';
export { runDaemon } from './daemon/index.js';
export { afterReport, saveStats, GIT_PUSH_STATE, GitPusher, pushProblem, type GitPushState } from './daemon/index.js';
export type { OutageEvent } from './daemon/index.js';
export type { DocumentTask } from './documents/index.js';
export { readDownloadRetries } from './media/index.js';
export { summarizePullPlan } from '../core/pull/PullPlan.js';
