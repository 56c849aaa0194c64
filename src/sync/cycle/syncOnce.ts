// One full cycle, both ways, its slices in order: the collection tables' push, the documents' push
// (local changes first, merged with the space's where both changed, checked by the safety rules),
// the documents' pull (what only the space changed), then the slices after the documents
// (cycle/slices.ts: whiteboards, media, task files). Pushing first means a local rename or delete is
// never undone by a pull that did not know of it yet. Each slice returns what it did as data; the
// cycle's report is their parts joined in the same order, and the exit code comes from them too.
import { releaseMemory, type SyncContext } from '../context/index.js';
import { listRemote } from '../documents/index.js';
import { pruneVersions } from '../versions/index.js';
import { collectionsPart, pushCollections, type CollectionPushResult } from '../collections/index.js';
import { emptyPlan, pullPart, pushPart, type PullCycleOptions, type PullCycleResult, type PushResult } from '../documents/index.js';
import type { DocumentRecord } from '../../journal/index.js';
import type { SafetyRefusal } from '../../core/push/safety.js';
import { applyDownloads, mediaPart, type MediaSyncResult } from '../media/index.js';
import { emptyReport, joinReport, type CycleReport, type Problem } from '../../core/report/cycleReport.js';
import { adoptionPending, adoptMirror, describeAdoption, type AdoptionResult } from './adoptMirror.js';
import { pushLocal, runPull } from './pullAndPush.js';
import { isBackup, keptHere } from './backupMode.js';
import { afterDocumentsParts, afterDocumentsUnsettled, noneAfterDocuments, runAfterDocuments, type AfterDocumentsResults } from './slices.js';

export interface SyncOnceOptions extends Omit<PullCycleOptions, 'localCandidates'> {
  /**
   * Only these files are looked at (the watcher's, and those an earlier operation left unsettled):
   * pushed when changed, and kept from the pull when changed. The whole mirror when omitted.
   */
  paths?: readonly string[];
  /**
   * The media assets' downloads: waited for and applied by this cycle (`wait`, a one-shot run), or
   * left running beside the next cycles (`background`, the daemon, which applies them between).
   */
  downloads?: 'wait' | 'background';
}

/**
 * What the cycle did: each slice's result as data (`whiteboards`, `media`, `tasks`: the slices after
 * the documents, cycle/slices.ts; null when the push or the pull was refused, or the slice had nothing to do).
 */
export interface SyncOnceResult extends AfterDocumentsResults {
  /** What the cycle did, every slice's part of it: what the terminal, status, the log and git say. */
  report: CycleReport;
  /** The mirror was found without its journal and compared with the space first (cycle/adoptMirror). */
  adoption?: AdoptionResult;
  /** The collection tables' push, before the documents'. */
  tables: CollectionPushResult;
  push: PushResult;
  /** Null when the push was refused (nothing changed on either side). */
  pull: PullCycleResult | null;
  /**
   * 0 in sync, 1 an error left something undone, 2 refused by a safety check (a file that would
   * wipe its document included), 3 conflicts kept, 4 something here held back and not sent (a file
   * not UTF-8, a change the space cannot take, a file naming a deleted document, a link).
   */
  exitCode: 0 | 1 | 2 | 3 | 4;
}

function combinePushes(first: PushResult, again: PushResult): PushResult {
  const a = first.outcome!;
  const b = again.outcome;
  const anchored = [...(first.anchored ?? []), ...(again.anchored ?? [])];
  const more = anchored.length > 0 ? { anchored } : {};
  if (!b) return { ...again, outcome: { ...a, failed: again.plan.refused ? a.failed : [] }, requests: first.requests + again.requests, ...more };
  return {
    plan: again.plan,
    outcome: {
      sent: [...a.sent, ...b.sent],
      documents: [...a.documents, ...b.documents],
      failed: b.failed,
      stale: b.stale,
      blocksWritten: a.blocksWritten + b.blocksWritten,
      conflicts: a.conflicts + b.conflicts,
      aborted: b.aborted,
    },
    requests: first.requests + again.requests,
    ...more,
  };
}

export async function syncOnce(ctx: SyncContext, opts: SyncOnceOptions = {}): Promise<SyncOnceResult> {
  const { paths, downloads, ...cycleOpts } = opts;
  ctx.ownership?.check();
  const startedAt = ctx.now().toISOString();
  // Without a journal there is no base: the mirror is adopted before anything is sent.
  const adoption = !ctx.readOnly && adoptionPending(ctx) ? await adoptMirror(ctx) : undefined;
  const first = !ctx.journal.hasListing();
  const result = await cycle(ctx, adoption ? undefined : paths, downloads, cycleOpts);
  result.report = reportOf(ctx, startedAt, result, first);
  if (adoption) {
    result.adoption = adoption;
    result.report = joinReport(result.report, {
      notes: [describeAdoption(adoption)],
      conflicts: adoption.conflicts,
    });
    if (result.exitCode === 0 && adoption.conflicts.length > 0) result.exitCode = 3;
  }
  // A cycle cut short because the mirror stopped being this run's ends with that error, not as a stop.
  ctx.ownership?.check();
  return result;
}

async function cycle(
  ctx: SyncContext,
  paths: readonly string[] | undefined,
  downloads: SyncOnceOptions['downloads'],
  cycleOpts: Omit<PullCycleOptions, 'localCandidates'>,
): Promise<SyncOnceResult> {
  const only = paths ? { paths } : {};
  // The push asks for a full listing only when there is something to push.
  const listing = async () => {
    const snapshot = await listRemote(ctx);
    return { documents: snapshot.documents, placements: snapshot.placements, folders: snapshot.folders };
  };
  await pruneVersions(ctx);
  // Backup mode sends nothing: what changed here is kept and held back, the pull runs as ever.
  if (isBackup(ctx)) return afterPush(ctx, paths, downloads, cycleOpts, NO_TABLES, await keptHere(ctx, paths));
  // Edited collection tables first: their item requests, then the blocks' push sees them in sync.
  const tables = await pushCollections(ctx, only);
  let push = await pushLocal(ctx, { listing, ...only });
  if ((push.outcome?.failed.length ?? 0) + (push.outcome?.stale.length ?? 0) > 0 && !ctx.signal?.aborted) {
    // A failed request may have been applied all the same: its documents are read again and
    // merged at once (their intents say so), never sent again blindly. Documents the space changed
    // while the push waited are merged with that change.
    const again = await pushLocal(ctx, { listing, ...only });
    push = combinePushes(push, again);
  }
  return afterPush(ctx, paths, downloads, cycleOpts, tables, push);
}

const NO_TABLES: CollectionPushResult = { requests: 0, writes: [], sent: [], problems: [], notes: [] };

/** The cycle once the push is done (or, in backup mode, only looked at): the pull and the slices after it. */
async function afterPush(
  ctx: SyncContext,
  paths: readonly string[] | undefined,
  downloads: SyncOnceOptions['downloads'],
  cycleOpts: Omit<PullCycleOptions, 'localCandidates'>,
  tables: CollectionPushResult,
  push: PushResult,
): Promise<SyncOnceResult> {
  const none = emptyReport('cycle', ctx.now().toISOString());
  if (push.plan.refused) return { report: none, tables, push, pull: null, ...noneAfterDocuments(), exitCode: 2 };
  // A full scan's garbage (every file's stat) is collected before the listing comes in beside it.
  releaseMemory();
  const pull = await runPull(ctx, paths ? { ...cycleOpts, localCandidates: recordsAt(ctx, paths) } : cycleOpts);
  // Once the documents are settled, the slices after them, in order (cycle/slices.ts).
  const after = pull.refused ? noneAfterDocuments() : await runAfterDocuments(ctx, { pull, paths, downloads });
  // What the cycle wrote leaves the journal's write-ahead log for its file: the log stays small.
  // A quiet poll that pushed nothing wrote nothing.
  if (!pull.quiet || push.outcome !== null || (after.tasks !== null && !after.tasks.quiet)) ctx.journal.checkpoint();
  const o = push.outcome;
  const held = (reason: string) => push.plan.heldBack.some((h) => h.reason === reason);
  // Backup mode's changes here are the mode's point, not a problem of the run.
  const heldOther = push.plan.heldBack.some((h) => h.reason !== 'backup');
  let exitCode: SyncOnceResult['exitCode'] = 0;
  if (pull.refused) exitCode = 2;
  else if ((o?.failed.length ?? 0) + pull.failed.length + pull.blocked.length + afterDocumentsUnsettled(after) > 0) exitCode = 1;
  else if (held('wipe')) exitCode = 2;
  else if (held('undecodable')) exitCode = 4;
  else if ((o?.conflicts ?? 0) > 0) exitCode = 3;
  // Something else here was held back or not sent (the files keep it): the run is not "in step".
  else if (heldOther || unsent(pushPart(push, tableFiles(tables)).problems!) + tables.problems.length > 0) exitCode = 4;
  return { report: none, tables, push, pull, ...after, exitCode };
}

/** The problems of the push besides the changes backup mode keeps here. */
const unsent = (problems: readonly Problem[]) => problems.filter((p) => !p.key.startsWith('held:backup:')).length;

/** The files whose collection tables the tables' push reported on. */
const tableFiles = (t: CollectionPushResult): Set<string> => new Set(t.problems.map((p) => p.path));

/** The cycle's report: each slice's part, in the order the slices ran. `first`: the mirror's first pull. */
function reportOf(ctx: SyncContext, startedAt: string, r: SyncOnceResult, first: boolean): CycleReport {
  const report = joinReport(
    emptyReport('cycle', startedAt),
    collectionsPart(r.tables),
    pushPart(r.push, tableFiles(r.tables)),
    ...(r.pull ? [pullPart(ctx, r.pull, first)] : []),
    ...afterDocumentsParts(r),
  );
  return withRefusal(report, r.push.plan.refused ?? r.pull?.refused ?? null, ctx.now().toISOString());
}

/** A refusal is the report's and a problem of it: said when it stops a cycle, and when a cycle goes through again. */
function withRefusal(report: CycleReport, refusal: SafetyRefusal | null, finishedAt: string): CycleReport {
  if (!refusal) return { ...report, finishedAt };
  const problem = { key: `refusal:${refusal.reason}`, path: '', severity: 'held' as const, message: refusal.message };
  return {
    ...report,
    finishedAt,
    refusal: { reason: refusal.reason, message: refusal.message, deletes: refusal.deletes ?? [] },
    problems: [...report.problems, problem],
  };
}

/** A push of saved files (the daemon's, between the cycles): the tables' push, then the documents'. */
export async function pushSaved(ctx: SyncContext, paths: readonly string[]): Promise<{ push: PushResult; report: CycleReport }> {
  const startedAt = ctx.now().toISOString();
  ctx.ownership?.check();
  // A folder found without its journal has no base until a cycle has adopted it (one that failed,
  // the space out of reach or a folder behind a link, left it pending): a saved file sent now would
  // go out as a fresh edit over the space's version. It waits for that cycle, which compares it.
  if (!ctx.readOnly && adoptionPending(ctx)) return { push: { plan: emptyPlan(), outcome: null, requests: 0 }, report: emptyReport('push', startedAt) };
  // Edited collection tables first, as a cycle does: the blocks' push cannot send them, and no
  // later poll cycle looks at a file this push settled. A fresh listing (one request): a cached one
  // would miss an edit the space got since, and the PUT would overwrite it instead of merging.
  const backup = isBackup(ctx);
  const tables = backup ? NO_TABLES : await pushCollections(ctx, { paths });
  const push = backup ? await keptHere(ctx, paths) : await pushLocal(ctx, { paths, listingMaxAgeMs: 0 });
  const report = joinReport(emptyReport('push', startedAt), collectionsPart(tables), pushPart(push, tableFiles(tables)));
  return { push, report: withRefusal(report, push.plan.refused, ctx.now().toISOString()) };
}

/** The downloads that ended since the last look, applied between the daemon's operations: an operation of their own, with its report. */
export async function applyEndedDownloads(ctx: SyncContext): Promise<{ media: MediaSyncResult; report: CycleReport }> {
  const startedAt = ctx.now().toISOString();
  const media = await applyDownloads(ctx);
  return { media, report: { ...joinReport(emptyReport('media', startedAt), mediaPart(media)), finishedAt: ctx.now().toISOString() } };
}

/** The documents recorded at these paths (after the push, which may have moved some). */
function recordsAt(ctx: SyncContext, paths: readonly string[]): DocumentRecord[] {
  const records = new Map<string, DocumentRecord>();
  for (const p of new Set(paths)) {
    const r = ctx.journal.getDocumentByPath(p);
    if (r) records.set(r.id, r);
  }
  return [...records.values()];
}
