// The documents' push: settle what an interrupted run left, look at the mirror, ask the latest
// listing which of the changed documents the service changed too, plan, check safety, and carry the
// plan out (or only return it, for `spacesync plan` and `--dry-run`). The links follow what it
// recorded in the step the cycle runs right after it (cycle/pullAndPush.ts).
import type { Intent, ListingEntry } from '../../../journal/index.js';
import { FILE_ONLY } from '../../../log.js';
import { recordHeldBack, recordTypedAnchors, RELINK_PENDING, useApprovals, type PushSteps, type SyncContext } from '../../context/index.js';
import { currentListing } from './currentListing.js';
import { executePlan, type PushOutcome } from './executePlan.js';
import { planPush } from './planPush.js';
import { decidePush, type PlanPushInput } from './decidePush.js';
import { readForPush } from './readForPush.js';
import { emptyPlan, type PushPlan } from './PushPlan.js';
import { isUndecodable, readLocalDocument } from './readLocalDocument.js';
import { resolveIntents } from './resolveIntents.js';
import { containerOf, type Placement, type RemoteDocument, type RemoteFolder } from '../../../core/remoteTypes.js';
import { shiftCounts } from '../pull/pullState.js';
import { scanLocal, type LocalScan, type ScanOptions } from './scanLocal.js';

/** A listing younger than this is taken as current (one request covers every pending document). */
export const LISTING_MAX_AGE_MS = 3_000;

export interface FullListing {
  documents: ReadonlyMap<string, RemoteDocument>;
  placements?: ReadonlyMap<string, Placement>;
  folders?: readonly RemoteFolder[];
}

export interface PushOptions {
  /** Only these paths (what the watcher named); the whole mirror, folders included, when omitted. */
  paths?: readonly string[];
  /**
   * Takes a full listing (documents, where they are, the folders), asked only when there is
   * something to push; without it the latest listing is used, read again when older than `listingMaxAgeMs`.
   */
  listing?: () => Promise<FullListing>;
  listingMaxAgeMs?: number;
  /** Plan only: nothing is sent and nothing recorded. */
  dryRun?: boolean;
}

export interface PushResult {
  plan: PushPlan;
  /** Null when nothing was carried out (a dry run, a refusal, nothing to do). */
  outcome: PushOutcome | null;
  /** Requests made (reads included). */
  requests: number;
  /** Files whose links to blocks, or markers, were rewritten after the push recorded its documents (a local-only change: the links slice's step, which the cycle runs right after this push). */
  anchored?: string[];
}

const isEmpty = (s: LocalScan) => s.changed.length + s.missing.length + s.added.length + s.addedDirs.length + s.removedDirs.length === 0;

/**
 * The documents' push; `steps`: the media slice's steps inside it (the cycle's). A stop while it
 * looks (a listing, a read for a merge) throws: the cycle's push (cycle/pullAndPush.ts) answers it.
 */
export async function pushDocuments(ctx: SyncContext, opts: PushOptions, steps: PushSteps): Promise<PushResult> {
  const before = ctx.client.stats().total;
  const requests = () => ctx.client.stats().total - before;
  const { journal } = ctx;
  let intents = journal.pendingIntents();
  // Uploads whose answers were lost first, before any document is merged: one that landed is
  // adopted as its answer would have been recorded, so no merge brings its block in as a second line.
  if (!opts.dryRun && (await steps.settleUploads(ctx, intents))) intents = journal.pendingIntents();
  const scanOpts = opts.paths ? { paths: opts.paths } : {};
  let scan = await scanLocal(ctx, scanOpts);
  if (isEmpty(scan) && intents.length === 0) {
    if (!opts.dryRun) recordHeldBack(journal, scan.heldBack, opts.paths);
    return { plan: { ...emptyPlan(), problems: scan.problems, heldBack: scan.heldBack }, outcome: null, requests: 0 };
  }
  const { listing, listedAt, full } = await takeListing(ctx, opts);
  let forced = new Map<string, number[]>();
  for (const i of intents) if (i.docId !== null) forced.set(i.docId, [...(forced.get(i.docId) ?? []), i.id]);
  if (intents.length > 0 && !opts.dryRun) ({ forced, scan } = await settleIntents(ctx, intents, listing, scanOpts));

  // A file moved here takes its .assets folder along before its references are read (from where its
  // folder went, when that folder was renamed or moved too).
  if (!opts.dryRun)
    await steps.carryAssetFolders(
      ctx,
      scan.changed.map((c) => ({ from: c.record.path, to: c.local.path })),
      scan.addedDirs,
    );
  const plan = await readAndPlan(ctx, {
    scan,
    listing,
    forced,
    pendingIntents: intents.length,
    fullScan: opts.paths === undefined,
    ...(full?.placements ? { placements: full.placements } : {}),
    ...(full?.folders ? { remoteFolders: full.folders } : {}),
  });
  if (!opts.dryRun) recordHeldBack(journal, plan.heldBack, opts.paths);
  // The cycle's report tells the terminal, once when it appears; the log keeps every look.
  for (const h of plan.heldBack) ctx.logger.warn({ ...FILE_ONLY, path: h.path, reason: h.reason }, h.message);
  if (plan.refused) {
    ctx.logger.warn({ ...FILE_ONLY, reason: plan.refused.reason }, plan.refused.message); // the command says it
    return { plan, outcome: null, requests: requests() };
  }
  if (opts.dryRun) return { plan, outcome: null, requests: requests() };
  const outcome = await carryOut(ctx, plan, { takenAt: listedAt, items: listing });
  if (plan.approved) {
    // An approval is used once: by the push that sent what it let through (a failed send keeps it for the next).
    const sent = new Set(outcome.documents.map((d) => d.path));
    useApprovals(journal, { files: plan.approved.files.filter((p) => sent.has(p)), deletes: plan.approved.deletes && !outcome.aborted });
  }
  return { plan, outcome, requests: requests() };
}

/** The listing the push compares with: a full one when the caller takes it, else the latest, read again when too old. */
async function takeListing(ctx: SyncContext, opts: PushOptions): Promise<{ listing: Map<string, ListingEntry>; listedAt: string; full?: FullListing }> {
  if (opts.listing) {
    const listedAt = ctx.now().toISOString();
    const full = await opts.listing();
    const listing = new Map([...full.documents].map(([id, d]) => [id, { title: d.title, lastModifiedAt: d.lastModifiedAt }]));
    return { listing, listedAt, full };
  }
  const current = await currentListing(ctx, opts.listingMaxAgeMs ?? LISTING_MAX_AGE_MS, { record: !opts.dryRun });
  return { listing: current.items, listedAt: current.takenAt };
}

/** Requests an earlier run sent without recording their answers: settled, and their documents read again and merged. */
async function settleIntents(ctx: SyncContext, intents: Intent[], listing: ReadonlyMap<string, ListingEntry>, scanOpts: ScanOptions) {
  const { journal } = ctx;
  const { forced } = await resolveIntents(ctx, intents, listing);
  // What their merge records is the file's text, links as typed: a document moved since they were
  // typed (a folder moved by the same push as the request that failed) is followed by the relinking
  // after this push, from every path it had (links/relinkDocuments).
  if (forced.size > 0 && !ctx.readOnly)
    journal.setState(RELINK_PENDING, [...new Set([...(journal.getState<string[]>(RELINK_PENDING) ?? []), ...forced.keys()])]);
  const scan = await scanLocal(ctx, scanOpts);
  // A document with requests in flight is read again and merged even when its file did not change.
  for (const [id, settles] of forced) {
    const r = journal.getDocument(id);
    if (!r || r.fileHash === null || scan.changed.some((c) => c.record.id === id) || scan.missing.some((m) => m.id === id)) continue;
    const local = await readLocalDocument(ctx.root, r.path);
    if (isUndecodable(local)) continue; // held back until saved as UTF-8; its intents wait for it
    if (local && local.frontMatter.ok) scan.changed.push({ record: r, local, moved: false });
    else settles.forEach((i) => journal.clearIntent(i));
  }
  return { forced, scan };
}

/** The plan, made after what it needs was read: its decisions first, then the reads they name, then the plan itself. */
async function readAndPlan(ctx: SyncContext, input: PlanPushInput): Promise<PushPlan> {
  const before = ctx.client.stats().total;
  const sides = decidePush(ctx.journal, input);
  const reads = await readForPush(ctx, sides.entries, input.listing);
  const plan = planPush(ctx, input, sides, reads);
  plan.reads = ctx.client.stats().total - before;
  return plan;
}

/** Sends the plan and records it; the counts of the containers documents left and joined follow. */
async function carryOut(ctx: SyncContext, plan: PushPlan, listing: { takenAt: string; items: ReadonlyMap<string, ListingEntry> }): Promise<PushOutcome> {
  const { journal } = ctx;
  const placedBefore = new Map(plan.tasks.flatMap((t) => (t.record ? [[t.record.id, containerOf(t.record)] as const] : [])));
  // Blocks typed links name for the first time: their anchors, so the answers' `block://` links show as the files do.
  if (plan.anchors) recordTypedAnchors(journal, plan.anchors);
  const outcome = await executePlan(ctx, plan, { listing });
  const shifts = outcome.documents.flatMap((d) => {
    const now = journal.getDocument(d.id);
    return now ? [{ from: placedBefore.get(d.id) ?? null, to: containerOf(now) }] : [];
  });
  journal.transaction(() => shiftCounts(journal, shifts));
  return outcome;
}
