// The cycle's slices, in the order the cycle runs them, each with one contract: it runs (reads, plans
// in core, applies) and returns what happened as data; gives its part of the report; counts what it
// left unsettled; may stop the cycle (a safety refusal: no slice after it runs); and says what it
// would do, adding its part to the cycle's plan. `syncOnce` runs this list, `planCycle` plans it; a
// new kind of content is one entry here (docs/architecture.md, "The slice contract").
import type { ReportPart } from '../../core/report/cycleReport.js';
import type { SafetyRefusal } from '../../core/push/safety.js';
import type { DocumentRecord } from '../../journal/index.js';
import { releaseMemory, type SyncContext } from '../context/index.js';
import { collectionsPart, pushCollections, type CollectionPushResult } from '../collections/index.js';
import { listRemote, pullPart, pushPart, type PullCycleOptions, type PullCycleResult, type PushResult } from '../documents/index.js';
import { mediaPart, syncMedia, type MediaSyncResult } from '../media/index.js';
import { syncTaskFiles, tasksPart, tasksPlan, type TaskFilesResult } from '../tasks/index.js';
import { pruneVersions } from '../versions/index.js';
import { drawWhiteboard, syncWhiteboards, whiteboardsPart, whiteboardsPlan, type WhiteboardSyncResult } from '../whiteboards/index.js';
import { adoptionAhead, documentsPullPlan, documentsPushPlan, emptyCyclePlan, type CyclePlan } from './cyclePlan.js';
import { isBackup, keptHere } from './backupMode.js';
import { pushLocal, runPull } from './pullAndPush.js';

/** What each slice returns. */
export interface CycleResults {
  /** Versions of the history pruned. */
  versions: number;
  /** The collection tables' push, before the documents'. */
  tables: CollectionPushResult;
  push: PushResult;
  pull: PullCycleResult;
  whiteboards: WhiteboardSyncResult;
  media: MediaSyncResult;
  tasks: TaskFilesResult;
}

/** Each slice's result; null when it did not run (a refusal before it) or had nothing to do. */
export type SliceResults = { [K in keyof CycleResults]: CycleResults[K] | null };

/** What a slice sees of the cycle: what it looks at, and the results of the slices before it. */
export interface CycleSoFar {
  /** The files the cycle looks at (the watcher's); the whole mirror when undefined. */
  paths: readonly string[] | undefined;
  /** The media's downloads: waited for (`wait`, a one-shot run) or left running beside the next cycles (`background`). */
  downloads: 'wait' | 'background' | undefined;
  pullOptions: Omit<PullCycleOptions, 'localCandidates'>;
  /** The mirror's first pull: the space's trash is not "deleted" to it. */
  first: boolean;
  results: SliceResults;
}

export interface Slice<R> {
  /** Its part of the cycle; null when it had nothing to do this time. */
  run(ctx: SyncContext, cycle: CycleSoFar): Promise<R | null>;
  /** Its part of the cycle's report. */
  part?(result: R, cycle: CycleSoFar, ctx: SyncContext): ReportPart;
  /** How many of its items failed or were held back: the run is not in step (exit 1). */
  unsettled?(result: R): number;
  /** A safety check stopped the cycle here: no slice after it runs. */
  stops?(result: R): SafetyRefusal | null;
  /** What it would do (`spacesync plan`), reading only, added to the cycle's plan. */
  plan?(ctx: SyncContext, into: CyclePlan): Promise<void>;
}

export const NO_TABLES: CollectionPushResult = { requests: 0, writes: [], sent: [], problems: [], notes: [] };

/** The files whose collection tables the tables' push reported on (the documents' push does not report them again). */
export const tableFiles = (t: CollectionPushResult | null): Set<string> => new Set((t ?? NO_TABLES).problems.map((p) => p.path));

const only = (c: CycleSoFar) => (c.paths ? { paths: c.paths } : {});
const addPlan = (into: CyclePlan, part: { changes: CyclePlan['changes']; write: string[] }) => {
  into.changes.push(...part.changes);
  into.files.write.push(...part.write);
};

export const SLICES: { [K in keyof CycleResults]: Slice<CycleResults[K]> } = {
  // The version history's retention, first: what this cycle keeps is not pruned by it.
  versions: { run: (ctx) => pruneVersions(ctx) },
  // Edited collection tables: their item requests, then the blocks' push sees them in sync. Backup
  // mode sends nothing.
  tables: {
    run: async (ctx, c) => (isBackup(ctx) ? NO_TABLES : pushCollections(ctx, only(c))),
    part: collectionsPart,
    plan: async (ctx, into) => {
      if (isBackup(ctx)) return;
      const r = await pushCollections(ctx, { dryRun: true });
      const part = collectionsPart(r);
      into.changes.push(...(part.changes ?? []));
      into.problems.push(...(part.problems ?? []));
      into.requests.push(...r.writes.map((w) => ({ method: w.split(' ')[0]!, path: w.split(' ')[1]!, describe: `${w} (a collection table edited here)` })));
      into.files.write.push(...(r.rewrites ?? []));
    },
  },
  // The documents' push, before their pull: a local rename or delete is never undone by a pull
  // that did not know of it yet. Backup mode only looks at what changed here, and keeps it.
  push: {
    run: (ctx, c) => (isBackup(ctx) ? keptHere(ctx, c.paths) : pushTwice(ctx, c)),
    part: (r, c) => pushPart(r, tableFiles(c.results.tables)),
    unsettled: (r) => r.outcome?.failed.length ?? 0,
    stops: (r) => r.plan.refused,
    plan: documentsPushPlan,
  },
  // The documents' pull: what only the space changed. A full scan's garbage (every file's stat) is
  // collected before the listing comes in beside it.
  pull: {
    run: (ctx, c) => {
      releaseMemory();
      return runPull(ctx, c.paths ? { ...c.pullOptions, localCandidates: recordsAt(ctx, c.paths) } : c.pullOptions);
    },
    part: (r, c, ctx) => pullPart(ctx, r, c.first),
    unsettled: (r) => r.failed.length + r.blocked.length,
    stops: (r) => r.refused,
    plan: documentsPullPlan,
  },
  // The whiteboards' scene files, linked from the bodies the pull just wrote.
  whiteboards: {
    run: (ctx) => syncWhiteboards(ctx),
    part: whiteboardsPart,
    unsettled: (r) => r.failed.length + r.heldBack.length,
    plan: async (ctx, into) => addPlan(into, await whiteboardsPlan(ctx)),
  },
  // The media's assets; a download that fails is tried again after a backoff, no failure of this
  // cycle. Their plan is the documents' pull's (the assets of the documents it writes).
  media: {
    run: (ctx, c) => syncMedia(ctx, { wait: c.downloads !== 'background', drawScene: drawWhiteboard }),
    part: mediaPart,
  },
  // The task files, last: a cycle over the whole mirror lists the logbook too (a task added and
  // closed between two polls never showed in the inbox). Not after a pull cut short.
  tasks: {
    run: async (ctx, c) => (c.results.pull?.aborted !== false ? null : syncTaskFiles(ctx, { fullScan: c.results.pull.fullScan || c.paths === undefined })),
    part: tasksPart,
    unsettled: (r) => r.failed.length,
    plan: async (ctx, into) => addPlan(into, await tasksPlan(ctx)),
  },
};

type AnySlice = [keyof CycleResults, Slice<unknown>];
/** The slices in their order, as data. */
const inOrder = (): AnySlice[] => Object.entries(SLICES) as AnySlice[];

export const noResults = (): SliceResults => Object.fromEntries(inOrder().map(([name]) => [name, null])) as unknown as SliceResults;

/** Runs each slice in order, until one stops the cycle. */
export async function runSlices(ctx: SyncContext, cycle: CycleSoFar): Promise<void> {
  for (const [name, s] of inOrder()) {
    const r = await s.run(ctx, cycle);
    (cycle.results as Record<string, unknown>)[name] = r;
    if (r !== null && s.stops?.(r)) return;
  }
}

/** The parts of the report of the slices that ran, in order. */
export const slicesParts = (ctx: SyncContext, c: CycleSoFar): ReportPart[] =>
  inOrder().flatMap(([name, s]) => (c.results[name] === null || !s.part ? [] : [s.part(c.results[name], c, ctx)]));

/** Items the slices left unsettled. */
export const slicesUnsettled = (r: SliceResults): number =>
  inOrder().reduce((n, [name, s]) => n + (r[name] === null || !s.unsettled ? 0 : s.unsettled(r[name])), 0);

/** The refusal that stopped the cycle, if one did. */
export const refusalOf = (r: SliceResults): SafetyRefusal | null =>
  inOrder().reduce<SafetyRefusal | null>((found, [name, s]) => found ?? (r[name] === null || !s.stops ? null : s.stops(r[name])), null);

/** What a whole cycle would do, changing nothing: each slice's plan in order, until a refusal. */
export async function planCycle(ctx: SyncContext): Promise<CyclePlan> {
  const before = ctx.client.stats().total;
  const plan = emptyCyclePlan();
  if (await adoptionAhead(ctx)) {
    // Without a journal the cycle compares the folder with the space before anything else; what it
    // then sends or writes depends on what that finds.
    plan.notes.push(
      "No journal: the next sync first compares every file of the folder with the space (an adoption). Files equal to the space are in step; files that differ are kept as conflict copies beside the space's version; nothing is sent or uploaded again. It then syncs as usual.",
    );
  } else {
    for (const [, s] of inOrder()) {
      if (plan.refusal) break;
      await s.plan?.(ctx, plan);
    }
  }
  if (plan.refusal) plan.problems.push({ key: `refusal:${plan.refusal.reason}`, path: '', severity: 'held', message: plan.refusal.message });
  plan.reads = ctx.client.stats().total - before;
  plan.files.write = [...new Set(plan.files.write)].sort();
  plan.files.remove = [...new Set(plan.files.remove)].sort();
  return plan;
}

/**
 * The documents' push. A failed request may have been applied all the same: its documents are read
 * again and merged at once (their intents say so), never sent again blindly; documents the space
 * changed while the push waited are merged with that change. The push asks for a full listing
 * only when there is something to push.
 */
async function pushTwice(ctx: SyncContext, c: CycleSoFar): Promise<PushResult> {
  const listing = async () => {
    const snapshot = await listRemote(ctx);
    return { documents: snapshot.documents, placements: snapshot.placements, folders: snapshot.folders };
  };
  const push = await pushLocal(ctx, { listing, ...only(c) });
  if ((push.outcome?.failed.length ?? 0) + (push.outcome?.stale.length ?? 0) === 0 || ctx.signal?.aborted) return push;
  return combinePushes(push, await pushLocal(ctx, { listing, ...only(c) }));
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

/** The documents recorded at these paths (after the push, which may have moved some). */
function recordsAt(ctx: SyncContext, paths: readonly string[]): DocumentRecord[] {
  const records = new Map<string, DocumentRecord>();
  for (const p of new Set(paths)) {
    const r = ctx.journal.getDocumentByPath(p);
    if (r) records.set(r.id, r);
  }
  return [...records.values()];
}
