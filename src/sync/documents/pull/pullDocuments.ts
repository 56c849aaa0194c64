// One cycle of the pull: read the plan (list → safety → local changes → layout → core/pull/planPull),
// then run it: shape (folders, moves, new records) → record counts → pull the changed documents →
// purge → tidy → record. A file changed locally is never overwritten by a pull (it is reported as
// `localPending`, and nothing of it is lost). The plan run is returned with what each step did.
import type { Priority } from '../../../client/index.js';
import { BUILTIN_DIRS } from '../../../core/pull/layout.js';
import type { LocalChange, PullPlan } from '../../../core/pull/PullPlan.js';
import type { DocumentRecord } from '../../../journal/index.js';
import { FILE_ONLY } from '../../../log.js';
import { type PullSteps, type SyncContext, isPerDocumentError, isStopped, stoppedBeforeStart, recordOwnWrites, releaseMemory } from '../../context/index.js';
import { applyLayout, nothingLaidOut, type LayoutOutcome, type Move } from './applyLayout.js';
import { LayoutMemo, ListingMemo, treePrint } from './pullMemos.js';
import type { SafetyRefusal } from '../../../core/push/safety.js';
import type { RemoteSnapshot } from './listRemote.js';
import { EditsTurn, PulledRecords } from './pullTurns.js';
import { pullDocument, type PullOutcome } from './pullDocument.js';
import { prunePurged, purgeDocuments } from './purgeDocuments.js';
import { writeCounts, writeFullScanAt, writeUnplaceable } from './pullState.js';
import { readPullPlan, type PullReading } from './readPullPlan.js';
import { pullOrder } from '../../../core/pull/pullOrder.js';
import { listRecent } from './listRecent.js';
import { detectLocalChanges } from './detectLocalChanges.js';
import type { ContainerKey } from '../../../core/remoteTypes.js';
import { assertRoot, resolveForWrite } from '../../../mirror/index.js';
import { promises as fsp } from 'node:fs';
import { dirOfPath } from '../../../core/files/fileName.js';

export interface PullCycleOptions {
  /** Re-list every container whatever the counts say. */
  fullScan?: boolean;
  /** Only these documents' files are checked for local changes (the watcher names them); all when omitted. */
  localCandidates?: readonly DocumentRecord[];
}

export interface LocalPending {
  id: string;
  path: string;
  change: LocalChange | 'unrecorded';
  /** The service changed the document too: the merge must combine both. */
  remoteChanged: boolean;
}

export interface PullCycleResult {
  startedAt: string;
  finishedAt: string;
  /** Set when a safety check stopped the cycle before it changed anything. */
  refused: SafetyRefusal | null;
  /** Stopped by a signal between documents; what was done is recorded. */
  aborted: boolean;
  fullScan: boolean;
  /** Containers whose membership was listed with a request. */
  listed: ContainerKey[];
  /** Documents the service changed since the base (new ones included). */
  remoteChanged: string[];
  /** Documents whose file changed on disk since the base. */
  localChanged: Array<{ id: string; path: string; change: LocalChange }>;
  /** `overwrote`: backup mode wrote the space's version over a change made here (kept in the history). */
  written: Array<{ id: string; path: string; mode: 'new' | 'splice' | 'render'; overwrote?: boolean }>;
  /** Read, and the file already said the same: nothing written. */
  unchanged: string[];
  moved: Move[];
  folderMoves: Move[];
  /** Files whose links to moved documents were rewritten (a local-only change). */
  relinked: string[];
  /** Files whose links to blocks inside documents, or markers, were rewritten after the documents were read (a local-only change: the links slice's step, which the cycle runs right after this pull). */
  anchored: string[];
  createdDirs: string[];
  removedDirs: string[];
  purged: Array<{ id: string; from: string; to: string | null }>;
  /** Files changed locally and left as they are. */
  localPending: LocalPending[];
  blocked: Array<{ id: string; path: string; message: string }>;
  failed: Array<{ id: string; path: string; code: string; message: string }>;
  /** Documents whose path is ignored, and documents no listing could place. */
  ignored: string[];
  unplaced: string[];
  /** Requests sent this cycle (retries included). */
  requests: number;
  /**
   * The space showed no change since the last complete listing whose changes were all applied, and
   * no file here changed: the cycle ended after its two requests and wrote nothing.
   */
  quiet: boolean;
  /** How the space was listed: every document, or only those modified since yesterday (listRecent). */
  listing: 'full' | 'recent';
  /** The plan the cycle ran (null when refused or stopped before it was read). */
  plan: PullPlan | null;
}

/** A pull that did nothing yet (what each cycle's result starts from). */
export function emptyPullResult(startedAt: string): PullCycleResult {
  return {
    startedAt,
    finishedAt: startedAt,
    refused: null,
    aborted: false,
    fullScan: false,
    listed: [],
    remoteChanged: [],
    localChanged: [],
    written: [],
    unchanged: [],
    moved: [],
    folderMoves: [],
    relinked: [],
    anchored: [],
    createdDirs: [],
    removedDirs: [],
    purged: [],
    localPending: [],
    blocked: [],
    failed: [],
    ignored: [],
    unplaced: [],
    requests: 0,
    quiet: false,
    listing: 'full',
    plan: null,
  };
}

/**
 * Counts of containers whose changes were all applied. The others get no recorded count, so every
 * later pull lists them until their changes are applied: keeping their old count instead would hide
 * them again as soon as a later change brought the count back to it (a move kept back here, then a
 * move the other way).
 */
function recordCounts(ctx: SyncContext, snapshot: RemoteSnapshot, unsettled: ReadonlySet<ContainerKey>): void {
  const next = new Map<ContainerKey, number>();
  for (const [key, count] of snapshot.counts) if (!unsettled.has(key)) next.set(key, count);
  writeCounts(ctx.journal, next);
}

/** The garbage a pull may build up before it is collected (releaseMemory). */
const PULL_GARBAGE_BYTES = 32 * 1024 * 1024;

/** Counts what the read of a document did into the cycle's result. */
function recordOutcome(ctx: SyncContext, result: PullCycleResult, remoteChanged: ReadonlySet<string>, id: string, o: PullOutcome): void {
  switch (o.kind) {
    case 'written':
      result.written.push({ id, path: o.path, mode: o.mode, ...(o.overwrote ? { overwrote: true } : {}) });
      break;
    case 'unchanged':
      result.unchanged.push(id);
      break;
    case 'localPending':
      result.localPending.push({ id, path: o.path, change: o.reason, remoteChanged: remoteChanged.has(id) });
      break;
    case 'blocked':
      result.blocked.push({ id, path: o.path, message: o.message });
      break;
    case 'gone':
      break; // gone between the listing and the read: the next listing says where
  }
  ctx.logger.debug({ doc: id, outcome: o.kind, path: o.path }, 'pulled');
}

/** Reads the documents, a few at a time, with the edits saved meanwhile pushed between them (EditsTurn). */
async function pullAll(
  ctx: SyncContext,
  ids: readonly string[],
  snapshot: RemoteSnapshot,
  priority: Priority,
  result: PullCycleResult,
  remoteChanged: ReadonlySet<string>,
  steps: PullSteps,
  overwrite: ReadonlySet<string>,
): Promise<void> {
  let next = 0;
  let done = 0;
  let fatal: { error: unknown } | undefined;
  const report = () => ctx.onProgress?.({ done, total: ids.length, waitingFor: ctx.client.waitingFor() });
  report();
  const records = new PulledRecords(ctx.journal);
  const turn = new EditsTurn(ctx.editsWaiting, records);
  const stopListening = ctx.editsWaiting?.onSaved(() => void turn.letEditsGo());
  const pullOne = (id: string) => {
    const before = turn.yields;
    const answered = async () => {
      await turn.yielding;
      turn.underWay.add(one);
      return turn.yields !== before;
    };
    const one = (async () => {
      const outcome = await pullDocument(
        ctx,
        snapshot.documents.get(id)!,
        { priority, commit: records.commitOf(id), overwrite: overwrite.has(id), wrote: records.wrote, answered },
        steps,
      );
      recordOutcome(ctx, result, remoteChanged, id, outcome);
      // The assets that came in meanwhile go into place now, while the next reads wait for their budget.
      await steps.applyBesidePull(ctx, (doc) => records.recorded.has(doc));
    })();
    return one;
  };
  const worker = async () => {
    for (;;) {
      await turn.letEditsGo();
      if (fatal !== undefined || ctx.signal?.aborted || next >= ids.length) break;
      const id = ids[next++]!;
      const one = pullOne(id);
      try {
        await one;
      } catch (e) {
        // A stop request dropped the document's request before it went: nothing of it happened.
        if (isStopped(ctx, e)) break;
        if (!isPerDocumentError(e)) {
          fatal ??= { error: e };
          break;
        }
        const err = e as { code: string; message: string };
        result.failed.push({ id, path: ctx.journal.getDocument(id)?.path ?? id, code: err.code, message: err.message });
        ctx.logger.warn({ ...FILE_ONLY, doc: id, code: err.code }, err.message); // reported with the cycle
      } finally {
        turn.underWay.delete(one);
      }
      done++;
      report();
      // A large pull's garbage (answers, parsed blocks, file texts) is collected as it builds up, so
      // the peak does not depend on when V8, busy or not, gets round to it.
      releaseMemory(PULL_GARBAGE_BYTES);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.settings.concurrency, ids.length)) }, worker));
  } finally {
    stopListening?.();
  }
  await turn.yielding;
  await records.settle();
  await recordOwnWrites(ctx, records.own);
  if (fatal) throw fatal.error;
  if (ctx.signal?.aborted && done < ids.length) result.aborted = true;
}

/** The plan read, or null when the cycle ends before it (a quiet poll, a stop): `result` then says why. */
async function readCycle(ctx: SyncContext, opts: PullCycleOptions, result: PullCycleResult, finish: () => PullCycleResult): Promise<PullReading | null> {
  const { journal } = ctx;
  try {
    if (ctx.signal?.aborted) throw stoppedBeforeStart();
    // A poll (the watcher names the files to look at) first asks only for the recent changes.
    const recent = opts.localCandidates !== undefined && opts.fullScan !== true ? await listRecent(ctx) : null;
    if (recent) result.listing = 'recent';
    if (recent?.kind === 'same' && (await detectLocalChanges(ctx, opts.localCandidates)).size === 0) {
      // Nothing changed on either side since a listing whose changes were all applied: nothing to do.
      ListingMemo.confirm(journal, recent.takenAt);
      result.quiet = true;
      result.plan = { folders: [], documents: [], unsettled: [] };
      finish();
      ctx.logger.debug({ requests: result.requests }, 'quiet poll');
      return null;
    }
    // From here on the cycle changes things: the memo holds again only if it settles everything.
    ListingMemo.forget(journal);
    return await readPullPlan(ctx, { ...opts, adoptCreates: true, recent });
  } catch (e) {
    if (!isStopped(ctx, e)) throw e;
    result.aborted = true;
    finish();
    return null;
  }
}

/** Shapes the tree (folders, moves, new records), has the links follow the moves, and records the listing's counts. */
async function layOut(
  ctx: SyncContext,
  reading: PullReading,
  result: PullCycleResult,
  steps: PullSteps,
  byId: ReadonlyMap<string, DocumentRecord>,
): Promise<LayoutOutcome> {
  const { journal } = ctx;
  const { snapshot, plan } = reading;
  const shape = reading.quiet ? nothingLaidOut() : await applyLayout(ctx, snapshot, reading.layout!, plan!);
  if (!reading.quiet) {
    const whole = shape.unsettled.size + shape.blocked.length + shape.ignored.length + shape.recovered.length + snapshot.unplaced.length === 0;
    if (whole) LayoutMemo.remember(journal, reading.layoutInput!, snapshot.folders, reading.layout!);
    else LayoutMemo.forget(journal);
  }
  const local = new Map(reading.local);
  for (const id of shape.recovered) local.delete(id);
  result.localChanged = [...local].map(([id, change]) => ({ id, path: byId.get(id)!.path, change }));
  result.folderMoves = shape.folderMoves;
  result.moved = shape.moved;
  // Links to the documents moved (a file or a folder renamed) follow them, before any is pulled.
  result.relinked = await steps.followMoves(ctx);
  result.createdDirs = shape.createdDirs;
  result.blocked.push(...shape.blocked);
  result.ignored = shape.ignored;
  result.unplaced = snapshot.unplaced;
  journal.transaction(() => {
    recordCounts(ctx, snapshot, shape.unsettled);
    if (snapshot.fullScan) {
      writeFullScanAt(journal, snapshot.takenAt);
      writeUnplaceable(
        journal,
        snapshot.unplaced.filter((id) => !byId.has(id)),
      );
    }
  });
  return shape;
}

/**
 * The documents read, in the journal's order: written, brought up to date, or (changed on both
 * sides) read to see whether the file already says what the service says; those kept as they are
 * go to `localPending`.
 */
function documentsToRead(ctx: SyncContext, plan: PullPlan, snapshot: RemoteSnapshot, result: PullCycleResult) {
  const { journal } = ctx;
  const reads = new Set<string>();
  const remoteChanged = new Set<string>();
  const purgeIds: string[] = [];
  for (const step of plan.documents) {
    if (step.kind === 'write' || step.kind === 'splice' || (step.kind === 'keep' && step.check)) reads.add(step.id);
    if (step.kind === 'write' || step.kind === 'splice' || (step.kind === 'keep' && step.remoteChanged)) remoteChanged.add(step.id);
    if (step.kind === 'keep' && !step.check) {
      result.localPending.push({ id: step.id, path: journal.getDocument(step.id)?.path ?? step.path, change: step.change, remoteChanged: step.remoteChanged });
    }
    if (step.kind === 'purge') purgeIds.push(step.id);
  }
  // Nothing read and nothing changed (an idle poll): the journal's order is not needed.
  const inJournal = reads.size + remoteChanged.size === 0 ? [] : journal.listDocuments();
  // The newest first: in a large pull what the user opens first arrives first (core/pull/pullOrder).
  const toPull = pullOrder(
    inJournal
      .filter((r) => reads.has(r.id))
      .map((r) => ({ id: r.id, lastModifiedAt: snapshot.documents.get(r.id)?.lastModifiedAt ?? null, dailyNoteDate: r.dailyNoteDate })),
    ctx.now(),
  );
  result.remoteChanged = inJournal.filter((r) => remoteChanged.has(r.id)).map((r) => r.id);
  return { toPull, remoteChanged, purgeIds };
}

/** After the reads: the purges, the folders left empty removed, the moved files edited meanwhile kept as local changes. */
async function tidyUp(ctx: SyncContext, result: PullCycleResult, shape: LayoutOutcome, purgeIds: readonly string[]): Promise<void> {
  const { journal } = ctx;
  if (!result.aborted) {
    const purge = await purgeDocuments(ctx, purgeIds);
    result.purged = purge.purged;
    for (const v of purge.vacated) shape.vacated.add(v);
    await prunePurged(ctx);
  }

  const live = new Set<string>([...Object.values(BUILTIN_DIRS), ...journal.listFolders().map((f) => f.path)]);
  for (const p of [...live]) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) live.add(p.slice(0, i));
  result.removedDirs = await removeVacatedDirs(ctx.root, shape.vacated, live);
  // Moved with an edit saved after the pull looked: changed here, not sent (the push looks there).
  for (const { id, path } of shape.movedEdited) {
    if (!result.localPending.some((p) => p.id === id))
      result.localPending.push({ id, path: journal.getDocument(id)?.path ?? path, change: 'edited', remoteChanged: false });
  }
}

/** Records the listing and the cycle's counts; a listing whose every change was applied is remembered for the next poll. */
function recordCycle(ctx: SyncContext, result: PullCycleResult, snapshot: RemoteSnapshot, shape: LayoutOutcome): void {
  const { journal } = ctx;
  // Every change of this listing applied: the next poll compares the recent changes with it.
  const settled =
    !result.aborted &&
    shape.unsettled.size + shape.recovered.length === 0 &&
    result.failed.length + result.blocked.length + result.localPending.length + result.ignored.length + result.unplaced.length === 0;
  journal.transaction(() => {
    journal.replaceListing(snapshot.takenAt, snapshot.documents);
    journal.setState('lastCycle', {
      at: result.startedAt,
      written: result.written.length,
      moved: result.moved.length + result.folderMoves.length,
      purged: result.purged.length,
      localPending: result.localPending.length,
      failed: result.failed.length,
      blocked: result.blocked.length,
    });
  });
  if (settled) ListingMemo.remember(journal, { takenAt: snapshot.takenAt, documents: snapshot.documents, tree: treePrint(snapshot.folders, snapshot.counts) });
}

/**
 * The documents' pull; `steps`: the other slices' steps inside it (the cycle's, which relinks the
 * anchors right after it: cycle/pullAndPush.ts).
 */
export async function pullDocuments(ctx: SyncContext, opts: PullCycleOptions, steps: PullSteps): Promise<PullCycleResult> {
  const result = emptyPullResult(ctx.now().toISOString());
  const requestsBefore = ctx.client.stats().total;
  const finish = () => {
    result.finishedAt = ctx.now().toISOString();
    result.requests = ctx.client.stats().total - requestsBefore;
    return result;
  };
  await assertRoot(ctx.root);
  const reading = await readCycle(ctx, opts, result, finish);
  if (reading === null) return result;
  const { snapshot, records } = reading;
  result.fullScan = snapshot.fullScan;
  result.listed = snapshot.read;
  if (reading.refused) {
    result.refused = reading.refused;
    ctx.logger.warn({ ...FILE_ONLY, reason: result.refused.reason }, result.refused.message); // the command says it
    return finish();
  }
  const plan = reading.plan!;
  result.plan = plan;
  const byId = new Map(records.map((r) => [r.id, r]));

  const shape = await layOut(ctx, reading, result, steps, byId);
  const { toPull, remoteChanged, purgeIds } = documentsToRead(ctx, plan, snapshot, result);
  const bulk = toPull.length > 8 || records.length === 0;
  const overwrite = new Set(plan.documents.flatMap((s) => (s.kind === 'write' && s.reason === 'backup_overwrite' ? [s.id] : [])));
  await pullAll(ctx, toPull, snapshot, bulk ? 'bulk' : 'poll', result, remoteChanged, steps, overwrite);
  await tidyUp(ctx, result, shape, purgeIds);
  recordCycle(ctx, result, snapshot, shape);
  finish();
  ctx.logger.info(
    {
      requests: result.requests,
      listed: result.listed.length,
      fullScan: result.fullScan,
      remoteChanged: result.remoteChanged.length,
      written: result.written.length,
      unchanged: result.unchanged.length,
      moved: result.moved.length,
      folderMoves: result.folderMoves.length,
      purged: result.purged.length,
      localPending: result.localPending.length,
      blocked: result.blocked.length,
      failed: result.failed.length,
      aborted: result.aborted,
    },
    'cycle done',
  );
  return result;
}

/**
 * After documents and folders moved away, the directories they left are removed when empty, up
 * to the first directory that still stands for a location or folder. Only empty directories go.
 */
export async function removeVacatedDirs(root: string, vacated: Iterable<string>, live: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const order = [...new Set(vacated)].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  for (const start of order) {
    for (let dir = start; dir !== '' && !live.has(dir) && !dir.startsWith('.'); dir = dirOfPath(dir)) {
      try {
        await fsp.rmdir(resolveForWrite(root, dir));
        removed.push(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // gone already: look at its parent
        break; // not empty: the user's files stay, and so does every directory above
      }
    }
  }
  return removed;
}
