// One full cycle, both ways: the slices in order (cycle/slices.ts: the versions' retention, the
// collection tables' push, the documents' push, local changes first, merged with the space's where
// both changed and checked by the safety rules, the documents' pull, then whiteboards, media, task
// files), until one refuses. Each slice returns what it did as data; the cycle's report is their
// parts joined in the same order, and the exit code comes from them too.
import type { SyncContext } from '../context/index.js';
import { collectionsPart, pushCollections, type CollectionPushResult } from '../collections/index.js';
import { emptyPlan, pushPart, type PullCycleOptions, type PushResult } from '../documents/index.js';
import type { SafetyRefusal } from '../../core/push/safety.js';
import { applyDownloads, mediaPart, type MediaSyncResult } from '../media/index.js';
import { emptyReport, joinReport, type CycleReport, type Problem } from '../../core/report/cycleReport.js';
import { adoptionPending, adoptMirror, describeAdoption, type AdoptionResult } from './adoptMirror.js';
import { pushLocal } from './pullAndPush.js';
import { isBackup, keptHere } from './backupMode.js';
import { noResults, NO_TABLES, refusalOf, runSlices, slicesParts, slicesUnsettled, tableFiles, type CycleSoFar, type SliceResults } from './slices.js';

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

/** What the cycle did: each slice's result as data (cycle/slices.ts; null when a refusal came before it, or it had nothing to do). */
export interface SyncOnceResult extends SliceResults {
  /** What the cycle did, every slice's part of it: what the terminal, status, the log and git say. */
  report: CycleReport;
  /** The mirror was found without its journal and compared with the space first (cycle/adoptMirror). */
  adoption?: AdoptionResult;
  tables: CollectionPushResult;
  push: PushResult;
  /**
   * 0 in sync, 1 an error left something undone, 2 refused by a safety check (a file that would
   * wipe its document included), 3 conflicts kept, 4 something here held back and not sent (a file
   * not UTF-8, a change the space cannot take, a file naming a deleted document, a link).
   */
  exitCode: 0 | 1 | 2 | 3 | 4;
}

export async function syncOnce(ctx: SyncContext, opts: SyncOnceOptions = {}): Promise<SyncOnceResult> {
  const { paths, downloads, ...pullOptions } = opts;
  ctx.ownership?.check();
  const startedAt = ctx.now().toISOString();
  // Without a journal there is no base: the mirror is adopted before anything is sent.
  const adoption = !ctx.readOnly && adoptionPending(ctx) ? await adoptMirror(ctx) : undefined;
  const cycle: CycleSoFar = { paths: adoption ? undefined : paths, downloads, pullOptions, first: !ctx.journal.hasListing(), results: noResults() };
  await runSlices(ctx, cycle);
  const { push, pull, tasks } = cycle.results;
  // What the cycle wrote leaves the journal's write-ahead log for its file: the log stays small.
  // A quiet poll that pushed nothing wrote nothing.
  if (pull && (!pull.quiet || push!.outcome !== null || (tasks !== null && !tasks.quiet))) ctx.journal.checkpoint();
  const report = withRefusal(joinReport(emptyReport('cycle', startedAt), ...slicesParts(ctx, cycle)), refusalOf(cycle.results), ctx.now().toISOString());
  const result: SyncOnceResult = { ...cycle.results, tables: cycle.results.tables!, push: push!, report, exitCode: exitCodeOf(cycle.results) };
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

/** The run's exit code, from what its slices did. */
function exitCodeOf(r: SliceResults): SyncOnceResult['exitCode'] {
  const push = r.push!;
  if (refusalOf(r)) return 2;
  const held = (reason: string) => push.plan.heldBack.some((h) => h.reason === reason);
  // Backup mode's changes here are the mode's point, not a problem of the run.
  const heldOther = push.plan.heldBack.some((h) => h.reason !== 'backup');
  if (slicesUnsettled(r) > 0) return 1;
  if (held('wipe')) return 2;
  if (held('undecodable')) return 4;
  if ((push.outcome?.conflicts ?? 0) > 0) return 3;
  // Something else here was held back or not sent (the files keep it): the run is not "in step".
  if (heldOther || unsent(pushPart(push, tableFiles(r.tables)).problems!) + (r.tables?.problems.length ?? 0) > 0) return 4;
  return 0;
}

/** The problems of the push besides the changes backup mode keeps here. */
const unsent = (problems: readonly Problem[]) => problems.filter((p) => !p.key.startsWith('held:backup:')).length;

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
