// The cycle: the slices in order (prune versions, collections push, documents push, documents pull,
// whiteboards, media, tasks) and its report; the push of saved files and the downloads applied
// between cycles (the daemon's other operations); the adoption of a mirror found without journal.
export { syncOnce, type SyncOnceResult } from './syncOnce.js';
export { lookedAt, readLastChange, readLastLook, readProblems, readRecentReports, recordReport, type StandingProblem } from './recordReport.js';
export { applyEndedDownloads, pushSaved } from './syncOnce.js';
export { planCycle } from './slices.js';
export type { CyclePlan } from './cyclePlan.js';
export { findLocalChanges, findRemoteChanges, type LocalPendingChange, type RemotePendingChange } from './pendingChanges.js';
export { applyRevert, planRevert, type RevertItem } from './revert.js';
export { pushLocal, runPull } from './pullAndPush.js';
export type { PushResult } from '../documents/index.js';
export type { MediaSyncResult } from '../media/index.js';
