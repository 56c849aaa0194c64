// Documents and folders: the pull (list the space → read the plan → apply the layout → pull each
// document → purge → record) and the push (scan the mirror → plan → send each step → record).
export { applyLayout, type LayoutOutcome, type Move } from './pull/applyLayout.js';
export { detectLocalChanges } from './pull/detectLocalChanges.js';
export { listRemote, type RemoteSnapshot } from './pull/listRemote.js';
export { pullDocument, type PullOutcome } from './pull/pullDocument.js';
export { PURGED_DIR } from './pull/purgeDocuments.js';
export { type PullReading, readPullPlan } from './pull/readPullPlan.js';
export { type LocalPending, type PullCycleOptions, type PullCycleResult, pullDocuments } from './pull/pullDocuments.js';
export { readCounts, readFullScanAt, readUnplaceable, shiftCounts, writeCounts, writeFullScanAt, writeUnplaceable } from './pull/pullState.js';
export { noteReadOnlyBlocks, readOnlyBlocks } from './readOnlyBlocks.js';
export { type DocumentTask, emptyPlan, type PushPlan } from './push/PushPlan.js';
export { type PushOutcome } from './push/executePlan.js';
export { LISTING_MAX_AGE_MS, pushDocuments, type PushOptions, type PushResult } from './push/pushDocuments.js';
export { resolveIntents } from './push/resolveIntents.js';
export { claimedId, isUndecodable, readLocalDocument, type LocalDocument } from './push/readLocalDocument.js';
export { overwriteDetail, pullPart, pushPart } from './report.js';
export { scanLocal, type LocalScan } from './push/scanLocal.js';
