// The pull: list the space → read the plan → apply the layout → pull each document → purge →
// record. `runPull` is one pull cycle; `describePull` prints its plan for --dry-run.
export { applyLayout, type LayoutOutcome, type Move } from './applyLayout.js';
export { describePull, type PullDryRun, type PullPlanSummary, summarizePullPlan } from './describePull.js';
export { detectLocalChanges } from './detectLocalChanges.js';
export { listRemote, type RemoteSnapshot } from './listRemote.js';
export { pullDocument, type PullOutcome } from './pullDocument.js';
export { PURGED_DIR } from './purgeDocuments.js';
export { type PullReading, readPullPlan } from './readPullPlan.js';
export { type LocalPending, type PullCycleOptions, type PullCycleResult, runPull } from './runPull.js';
