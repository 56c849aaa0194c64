// The slices that run after the documents, in the order the cycle runs them, each with one
// contract: it runs (reads, plans in core, applies) once the documents' pull went through, returns
// what happened as data, gives its part of the report, counts what it left unsettled, and says what
// it would do (the cycle's plan). A new kind of content that follows the documents is one entry of
// AFTER_DOCUMENTS (docs/architecture.md, "The slice contract").
import type { Change, ReportPart } from '../../core/report/cycleReport.js';
import { INBOX_FILE, LOGBOOK_FILE, parseTaskList, renderTaskList } from '../../core/tasks/taskFiles.js';
import { planTaskFiles } from '../../core/tasks/planTaskFiles.js';
import { readMirrorFile } from '../../mirror/index.js';
import type { SyncContext } from '../context/index.js';
import type { PullCycleResult } from '../documents/index.js';
import { mediaPart, syncMedia, type MediaSyncResult } from '../media/index.js';
import { entryOf, readTaskFilesState, syncTaskFiles, tasksPart, type TaskFilesResult } from '../tasks/index.js';
import { drawWhiteboard, syncWhiteboards, WHITEBOARD_BASE, whiteboardsPart, type WhiteboardRecord, type WhiteboardSyncResult } from '../whiteboards/index.js';

/** What a slice after the documents sees of the cycle so far. */
export interface AfterDocuments {
  /** The documents' pull, which went through (a refused one runs no slice after it). */
  pull: PullCycleResult;
  /** The files the cycle looks at (the watcher's); the whole mirror when undefined. */
  paths: readonly string[] | undefined;
  /** The media's downloads: waited for (`wait`, a one-shot run) or left running beside the next cycles (`background`). */
  downloads: 'wait' | 'background' | undefined;
}

/** What a slice would do, changing nothing: said as the report says it, and the files it would write. */
export interface SlicePlan {
  changes: Change[];
  write: string[];
}

export interface Slice<R> {
  /** Its part of the cycle; null when it had nothing to do this time. */
  run(ctx: SyncContext, cycle: AfterDocuments): Promise<R | null>;
  /** Its part of the cycle's report. */
  part(result: R): ReportPart;
  /** How many of its items failed or were held back: the run is not in step (exit 1). */
  unsettled(result: R): number;
  /** What it would do (`spacesync plan`), reading only; its assets, when the documents' plan holds them, are that plan's. */
  plan?(ctx: SyncContext): Promise<SlicePlan>;
}

const slice = <R>(s: Slice<R>): Slice<R> => s;

export const AFTER_DOCUMENTS = {
  // The whiteboards' scene files, linked from the bodies the pull just wrote.
  whiteboards: slice<WhiteboardSyncResult>({
    run: (ctx) => syncWhiteboards(ctx),
    part: whiteboardsPart,
    unsettled: (r) => r.failed.length + r.heldBack.length,
    plan: planScenes,
  }),
  // The media's assets; a download that fails is tried again after a backoff, no failure of this cycle.
  media: slice<MediaSyncResult>({
    run: (ctx, c) => syncMedia(ctx, { wait: c.downloads !== 'background', drawScene: drawWhiteboard }),
    part: mediaPart,
    unsettled: () => 0,
  }),
  // The task files, last: a cycle over the whole mirror lists the logbook too (a task added and
  // closed between two polls never showed in the inbox). Not after a pull cut short.
  tasks: slice<TaskFilesResult>({
    run: async (ctx, c) => (c.pull.aborted ? null : syncTaskFiles(ctx, { fullScan: c.pull.fullScan || c.paths === undefined })),
    part: tasksPart,
    unsettled: (r) => r.failed.length,
    plan: planTaskFilesOf,
  }),
};

export type AfterDocumentsResults = { [K in keyof typeof AFTER_DOCUMENTS]: (typeof AFTER_DOCUMENTS)[K] extends Slice<infer R> ? R | null : never };

type AnySlice = [keyof AfterDocumentsResults, Slice<unknown>];
/** The slices in their order, as data. */
export const afterDocumentsInOrder = (): AnySlice[] => Object.entries(AFTER_DOCUMENTS) as AnySlice[];

/** Runs each slice in order. */
export async function runAfterDocuments(ctx: SyncContext, cycle: AfterDocuments): Promise<AfterDocumentsResults> {
  const out: Partial<Record<keyof AfterDocumentsResults, unknown>> = {};
  for (const [name, s] of afterDocumentsInOrder()) out[name] = await s.run(ctx, cycle);
  return out as AfterDocumentsResults;
}

/** None ran (the push or the pull was refused). */
export const noneAfterDocuments = (): AfterDocumentsResults =>
  Object.fromEntries(afterDocumentsInOrder().map(([name]) => [name, null])) as unknown as AfterDocumentsResults;

/** Their parts of the report, in order. */
export const afterDocumentsParts = (r: AfterDocumentsResults): ReportPart[] =>
  afterDocumentsInOrder().flatMap(([name, s]) => (r[name] === null ? [] : [s.part(r[name])]));

/** Items they left unsettled. */
export const afterDocumentsUnsettled = (r: AfterDocumentsResults): number =>
  afterDocumentsInOrder().reduce((n, [name, s]) => n + (r[name] === null ? 0 : s.unsettled(r[name])), 0);

/** Scene files edited here: their boards would be sent (the file is rewritten only when the space changed the board too). */
async function planScenes(ctx: SyncContext): Promise<SlicePlan> {
  const plan: SlicePlan = { changes: [], write: [] };
  for (const rec of Object.values(ctx.journal.statesWithPrefix<WhiteboardRecord>(WHITEBOARD_BASE))) {
    const now = await readMirrorFile(ctx.root, rec.file);
    if (now !== null && now.hash !== rec.fileHash)
      plan.changes.push({ kind: 'scene', side: 'local', action: 'updated', path: rec.file, title: rec.file.replace(/^.*\//, '') });
  }
  return plan;
}

/** The task files: what the inbox file's changes would send, and the files written from the space. */
async function planTaskFilesOf(ctx: SyncContext): Promise<SlicePlan> {
  const plan: SlicePlan = { changes: [], write: [] };
  if (ctx.ignore(INBOX_FILE)) return plan;
  const state = readTaskFilesState(ctx.journal);
  const inbox = (await ctx.client.listTasks({ scope: 'inbox' })).items.map(entryOf);
  const file = await readMirrorFile(ctx.root, INBOX_FILE);
  const edited = file !== null && file.text !== null && file.hash !== state?.inboxHash;
  if (edited && file.text !== null) {
    const p = planTaskFiles(state?.inbox ?? [], parseTaskList(file.text), { inbox: state?.inbox ?? [], logbook: state?.logbook ?? [] });
    for (const l of p.create) plan.changes.push({ kind: 'task', side: 'local', action: 'created', path: INBOX_FILE, title: l.text });
    for (const u of p.update)
      plan.changes.push({ kind: 'task', side: 'local', action: u.state ? 'completed' : 'updated', path: INBOX_FILE, title: u.text ?? u.id });
    for (const id of p.remove)
      plan.changes.push({ kind: 'task', side: 'local', action: 'deleted', path: INBOX_FILE, title: state?.inbox.find((t) => t.id === id)?.text ?? id });
  }
  // Written from the space when it has no file yet, when the space's list moved, or after the file's changes are sent.
  const shown = renderTaskList(inbox);
  if (state === null || edited || JSON.stringify(inbox.map((t) => t.id)) !== JSON.stringify(state.inbox.map((t) => t.id)) || file?.text !== shown) {
    if (file === null || file.text !== shown || edited) plan.write.push(INBOX_FILE);
  }
  if (state === null && (await readMirrorFile(ctx.root, LOGBOOK_FILE)) === null) plan.write.push(LOGBOOK_FILE);
  return plan;
}
