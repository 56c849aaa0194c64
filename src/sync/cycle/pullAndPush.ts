// The documents' pull and push as the cycle runs them: with the steps of other slices that must run
// inside them (context/sliceSteps: the links following moved documents, the media's assets and lost
// uploads) and the links' step right after them (the anchors, and the moves a push made). These are
// the pull and the push every caller gets (a cycle, a push of saved files, an adoption, a plan).
import { isStopped, type PullSteps, type PushSteps, type SyncContext } from '../context/index.js';
import { emptyPlan, pullDocuments, pushDocuments, type PullCycleOptions, type PullCycleResult, type PushOptions, type PushResult } from '../documents/index.js';
import { relinkAnchors, relinkDocuments } from '../links/index.js';
import {
  applyBesidePull,
  awaitNewAssets,
  carryAssetFolders,
  carryMovedAssetFolders,
  isUploadIntent,
  markUploadsPending,
  prefetchAssets,
  resolveUploads,
} from '../media/index.js';

/** Links to the documents moved or renamed follow them, in the files that hold them (and a moved file's own links); their `.assets` folders go first. */
async function followMoves(ctx: SyncContext): Promise<string[]> {
  await carryMovedAssetFolders(ctx);
  return relinkDocuments(ctx);
}

const pullSteps: PullSteps = { followMoves, awaitNewAssets, prefetchAssets, applyBesidePull };

const pushSteps: PushSteps = {
  async settleUploads(ctx, intents) {
    if (!intents.some(isUploadIntent)) return false;
    await resolveUploads(ctx, intents);
    return true;
  },
  carryAssetFolders,
};

export async function runPull(ctx: SyncContext, opts: PullCycleOptions = {}): Promise<PullCycleResult> {
  const pull = await pullDocuments(ctx, opts, pullSteps);
  // Links to blocks follow what the documents read say of them (a first link, a heading renamed).
  if (!pull.quiet && !pull.refused && !pull.aborted) pull.anchored = await relinkAnchors(ctx);
  return pull;
}

export async function pushLocal(ctx: SyncContext, opts: PushOptions = {}): Promise<PushResult> {
  const before = ctx.client.stats().total;
  let push: PushResult;
  try {
    push = await pushDocuments(ctx, opts, pushSteps);
  } catch (e) {
    if (!isStopped(ctx, e)) throw e;
    // Stopped while it looked (a listing, a read for a merge): nothing was sent or recorded.
    const outcome = { sent: [], documents: [], failed: [], stale: [], blocksWritten: 0, conflicts: 0, aborted: true };
    return { plan: emptyPlan(), outcome, requests: ctx.client.stats().total - before };
  }
  const { plan, outcome } = push;
  if (!outcome) return push;
  // Links to the documents this push moved or renamed (with their files, or with a folder) follow
  // them in the files that hold them; so do the links of a moved file, relative to its new folder.
  await followMoves(ctx);
  // Links to blocks follow what this push recorded (a first link puts a marker on its block, a heading renamed renames the links).
  const anchored = await relinkAnchors(ctx);
  // Files that reference local files: the media step uploads them (this cycle's, or the next one's after a push of a saved file).
  const uploading = new Set(plan.tasks.filter((t) => t.uploads).map((t) => t.next.path));
  for (const d of outcome.documents) if (uploading.has(d.path)) markUploadsPending(ctx.journal, d.id);
  return anchored.length > 0 ? { ...push, anchored } : push;
}
