// One full cycle: the push, then the pull, then the pruning of old versions.
export { syncOnce, type SyncOnceOptions, type SyncOnceResult } from './syncOnce.js';
export { adoptionPending, describeAdoption, type AdoptionResult } from './adoptMirror.js';
export { lookedAt, readLastChange, readLastLook, readProblems, readRecentReports, recordReport, REPORT_KEYS, type StandingProblem } from './recordReport.js';
export { pushSaved } from './syncOnce.js';
export { planCycle, type CyclePlan } from './planCycle.js';
export { findLocalChanges, findRemoteChanges, type LocalPendingChange, type PendingLocalScan, type RemotePendingChange } from './pendingChanges.js';
export { applyRevert, planRevert, type RevertContext, type RevertItem } from './revert.js';
