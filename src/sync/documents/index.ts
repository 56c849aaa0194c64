// Documents and folders: the pull (list the space → read the plan → apply the layout → pull each
// document → purge → record) and the push (scan the mirror → plan → send each step → record).
export { listRemote } from './pull/listRemote.js';
export { readPullPlan } from './pull/readPullPlan.js';
export { type PullCycleOptions, type PullCycleResult, pullDocuments } from './pull/pullDocuments.js';
export { type DocumentTask, emptyPlan } from './push/PushPlan.js';
export { pushDocuments, type PushOptions, type PushResult } from './push/pushDocuments.js';
export { overwriteDetail, pullPart, pushPart } from './report.js';
export { scanLocal } from './push/scanLocal.js';
