// The push half of a cycle: settle what an interrupted run left, look at the mirror, ask the latest
// listing which of the changed documents the service changed too, plan, check safety, and carry the
// plan out (or only return it, for `spacesync plan` and `--dry-run`).
import { FILE_ONLY } from '../../../log.js';
import type { SyncContext } from '../../context/index.js';
import { currentListing } from './currentListing.js';
import { executePlan, type PushOutcome } from './executePlan.js';
import { isUploadIntent, markUploadsPending, resolveUploads } from '../../media/index.js';
import { planPush } from './planPush.js';
import { emptyPlan, type PushPlan } from './PushPlan.js';
import { isUndecodable, readLocalDocument } from './readLocalDocument.js';
import { carryAssetFolders } from '../../media/index.js';
import { recordTypedAnchors, relinkAnchors, relinkDocuments } from '../../links/index.js';
import { resolveIntents } from './resolveIntents.js';
import { containerOf, type Placement, type RemoteDocument, type RemoteFolder } from '../../../core/remoteTypes.js';
import { shiftCounts } from '../pull/pullState.js';
import { recordHeldBack } from '../../context/index.js';
import { scanLocal, type LocalScan } from './scanLocal.js';
import { isStopped } from '../../context/index.js';

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
  /** Files whose links to blocks, or markers, were rewritten after the push recorded its documents (a local-only change). */
  anchored?: string[];
}

const isEmpty = (s: LocalScan) => s.changed.length + s.missing.length + s.added.length + s.addedDirs.length + s.removedDirs.length === 0;

export async function pushLocal(ctx: SyncContext, opts: PushOptions = {}): Promise<PushResult> {
  const before = ctx.client.stats().total;
  try {
    return await pushLocalOnce(ctx, opts, before);
  } catch (e) {
    if (!isStopped(ctx, e)) throw e;
    // Stopped while it looked (a listing, a read for a merge): nothing was sent or recorded.
    const outcome = { sent: [], documents: [], failed: [], stale: [], blocksWritten: 0, conflicts: 0, aborted: true };
    return { plan: emptyPlan(), outcome, requests: ctx.client.stats().total - before };
  }
}

async function pushLocalOnce(ctx: SyncContext, opts: PushOptions, before: number): Promise<PushResult> {
  const requests = () => ctx.client.stats().total - before;
  const { journal } = ctx;
  let intents = journal.pendingIntents();
  // Uploads whose answers were lost first, before any document is merged: one that landed is
  // adopted as its answer would have been recorded, so no merge brings its block in as a second line.
  if (!opts.dryRun && intents.some(isUploadIntent)) {
    await resolveUploads(ctx, intents);
    intents = journal.pendingIntents();
  }
  const scanOpts = opts.paths ? { paths: opts.paths } : {};
  let scan = await scanLocal(ctx, scanOpts);
  if (isEmpty(scan) && intents.length === 0) {
    if (!opts.dryRun) recordHeldBack(journal, scan.heldBack, opts.paths);
    return { plan: { ...emptyPlan(), problems: scan.problems, heldBack: scan.heldBack }, outcome: null, requests: 0 };
  }

  let full: FullListing | undefined;
  let listing;
  let listedAt: string;
  if (opts.listing) {
    listedAt = ctx.now().toISOString();
    full = await opts.listing();
    listing = new Map([...full.documents].map(([id, d]) => [id, { title: d.title, lastModifiedAt: d.lastModifiedAt }]));
  } else {
    const current = await currentListing(ctx, opts.listingMaxAgeMs ?? LISTING_MAX_AGE_MS, { record: !opts.dryRun });
    listing = current.items;
    listedAt = current.takenAt;
  }

  let forced = new Map<string, number[]>();
  for (const i of intents) if (i.docId !== null) forced.set(i.docId, [...(forced.get(i.docId) ?? []), i.id]);
  if (intents.length > 0 && !opts.dryRun) {
    const resolution = await resolveIntents(ctx, intents, listing);
    forced = resolution.forced;
    scan = await scanLocal(ctx, scanOpts);
    // A document with requests in flight is read again and merged even when its file did not change.
    for (const [id, settles] of forced) {
      const r = journal.getDocument(id);
      if (!r || r.fileHash === null || scan.changed.some((c) => c.record.id === id) || scan.missing.some((m) => m.id === id)) continue;
      const local = await readLocalDocument(ctx.root, r.path);
      if (isUndecodable(local)) continue; // held back until saved as UTF-8; its intents wait for it
      if (local && local.frontMatter.ok) scan.changed.push({ record: r, local, moved: false });
      else settles.forEach((i) => journal.clearIntent(i));
    }
  }

  // A file moved here takes its .assets folder along before its references are read (from where its
  // folder went, when that folder was renamed or moved too).
  if (!opts.dryRun)
    await carryAssetFolders(
      ctx,
      scan.changed.map((c) => ({ from: c.record.path, to: c.local.path })),
      scan.addedDirs,
    );
  const plan = await planPush(ctx, {
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
  const placedBefore = new Map(plan.tasks.flatMap((t) => (t.record ? [[t.record.id, containerOf(t.record)] as const] : [])));
  // Blocks typed links name for the first time: their anchors, so the answers' `block://` links show as the files do.
  if (plan.anchors) recordTypedAnchors(journal, plan.anchors);
  const outcome = await executePlan(ctx, plan, { listing: { takenAt: listedAt, items: listing } });
  const shifts = outcome.documents.flatMap((d) => {
    const now = journal.getDocument(d.id);
    return now ? [{ from: placedBefore.get(d.id) ?? null, to: containerOf(now) }] : [];
  });
  journal.transaction(() => shiftCounts(journal, shifts));
  // Links to the documents this push moved or renamed (with their files, or with a folder) follow
  // them in the files that hold them; so do the links of a moved file, relative to its new folder.
  await relinkDocuments(ctx);
  // Links to blocks follow what this push recorded (a first link puts a marker on its block, a heading renamed renames the links).
  const anchored = await relinkAnchors(ctx);
  // Files that reference local files: the media step uploads them (this cycle's, or the next one's after a push of a saved file).
  const uploading = new Set(plan.tasks.filter((t) => t.uploads).map((t) => t.next.path));
  for (const d of outcome.documents) if (uploading.has(d.path)) markUploadsPending(journal, d.id);
  return { plan, outcome, requests: requests(), ...(anchored.length > 0 ? { anchored } : {}) };
}
