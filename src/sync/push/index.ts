// The push: scan the mirror → plan (`PushPlan`) → send each step → finalize and record.
// `pushLocal` is one push; what it holds back is kept for `status` and the daemon.
export { type DocumentTask, type HeldBackFile, type PushPlan } from './PushPlan.js';
export { type PushOutcome } from './executePlan.js';
export { readHeldBack } from '../session/index.js';
export { LISTING_MAX_AGE_MS, pushLocal, type PushOptions, type PushResult } from './pushLocal.js';
export { pushCollections, type CollectionPushResult } from './pushCollections.js';
export { withTableProblems } from './withTableProblems.js';
