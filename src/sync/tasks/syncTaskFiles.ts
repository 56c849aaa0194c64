// The task inbox and its logbook, both ways, once per cycle: `Tasks/Inbox.md` (editable) and
// `Tasks/Logbook.md` (read-only). The inbox is listed every cycle (one request); the logbook only
// when the inbox changed on either side, when its file was touched, and at the periodic full scan.
// The inbox file's changes are merged three ways (core/tasks/planTaskFiles) and sent as at most one
// request of each kind (POST, PUT, DELETE /tasks); then both lists are read again and both files are
// written from them, so the files always show the space's order and canonical text. Bytes the sync
// replaces that the user wrote (a conflict, an edit of the logbook) go to the version history first.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { INBOX_FILE, LOGBOOK_FILE, parseTaskList, renderTaskList, TASKS_DIR, type TaskEntry, type TaskLine } from '../../core/tasks/taskFiles.js';
import { planTaskFiles, type TaskFilesPlan, type TaskUpdateStep } from '../../core/tasks/planTaskFiles.js';
import { isSpacesyncError } from '../../errors.js';
import { hashText, readMirrorFile, writeFileIfUnchanged } from '../../mirror/index.js';
import type { Task, TaskUpdate } from '../../wire/types.js';
import { isStopped, saveLocalVersion, type SyncContext } from '../context/index.js';
import { readTaskFilesState, writeTaskFilesState, type TaskFilesState } from './taskFilesState.js';

/** One task changed, by its text: `completed` and `reopened` are changes of its state. */
export interface TaskChange {
  action: 'created' | 'updated' | 'deleted' | 'completed' | 'reopened';
  text: string;
}

export interface TaskFilesResult {
  /** Requests sent (retries included). */
  requests: number;
  /** Nothing changed on either side: the inbox listing was the only request. */
  quiet: boolean;
  /** What the inbox file's changes sent to the space. */
  sent: TaskChange[];
  /** What the space changed in the inbox since the last cycle (the files show it now); on the first cycle, the tasks it has. */
  pulled: TaskChange[];
  /** Files written from the space. */
  written: string[];
  /** Said once: a change both sides made (the space's kept), a logbook edit undone, a file left for the next cycle. */
  notices: string[];
  /** Standing while the file stays so (a stranger in Tasks/, a file that is not UTF-8): said when it appears and when it clears. */
  held: Array<{ path: string; message: string }>;
  /** A request that failed: nothing was written, the next cycle plans again. */
  failed: Array<{ path: string; code: string; message: string }>;
}

const PREFIX = /^[ \t]*[-*+][ \t]+\[[ xX-]\][ \t]*/;

/** A task as the task files hold it. */
export function entryOf(t: Task): TaskEntry {
  return {
    id: t.id,
    text: t.markdown.replace(PREFIX, '').replace(/\s*\n\s*/g, ' '),
    state: t.taskInfo.state,
    ...(t.taskInfo.scheduleDate ? { scheduleDate: t.taskInfo.scheduleDate } : {}),
    ...(t.taskInfo.deadlineDate ? { deadlineDate: t.taskInfo.deadlineDate } : {}),
  };
}

const sameList = (a: readonly TaskEntry[], b: readonly TaskEntry[]) => JSON.stringify(a) === JSON.stringify(b);

const FIELD_WORDS = { text: 'text', scheduleDate: 'scheduled date (⏳)', deadlineDate: 'deadline (📅)' } as const;

function wireUpdate(u: TaskUpdateStep): TaskUpdate {
  const taskInfo: NonNullable<TaskUpdate['taskInfo']> = {};
  if (u.state) taskInfo.state = u.state;
  if (u.scheduleDate !== undefined) taskInfo.scheduleDate = u.scheduleDate;
  if (u.deadlineDate !== undefined) taskInfo.deadlineDate = u.deadlineDate;
  return { id: u.id, ...(u.text !== undefined ? { markdown: u.text } : {}), ...(Object.keys(taskInfo).length > 0 ? { taskInfo } : {}) };
}

const newTask = (l: TaskLine) => ({
  markdown: l.text,
  location: { type: 'inbox' as const },
  ...(l.scheduleDate || l.deadlineDate
    ? { taskInfo: { ...(l.scheduleDate ? { scheduleDate: l.scheduleDate } : {}), ...(l.deadlineDate ? { deadlineDate: l.deadlineDate } : {}) } }
    : {}),
});

export async function syncTaskFiles(ctx: SyncContext, opts: { fullScan?: boolean } = {}): Promise<TaskFilesResult> {
  const result: TaskFilesResult = { requests: 0, quiet: false, sent: [], pulled: [], written: [], notices: [], held: [], failed: [] };
  // Ignoring the files (an ignore pattern) turns the task files off: no request at all.
  if (ctx.readOnly || ctx.ignore(INBOX_FILE)) return { ...result, quiet: true };
  // Asked to stop: the task files wait for the next run, as the documents not reached do.
  if (ctx.signal?.aborted) return result;
  // A document still recorded at a task file's path (a space folder named Tasks, mirrored before the
  // name was reserved) is moved out by the pull first; until it is, the task files wait.
  const squatter = [INBOX_FILE, LOGBOOK_FILE].find((p) => ctx.journal.getDocumentByPath(p) !== undefined);
  if (squatter) {
    result.notices.push(`"${squatter}" is still a document's file; the task files are written once the document has moved to its folder's new name.`);
    return result;
  }
  const before = ctx.client.stats().total;
  try {
    await run(ctx, opts, result);
  } catch (e) {
    // Stopped between requests: what was sent is found again by the next run's merge (an added line
    // the space has is tied to it, not created twice), and nothing was written or recorded.
    if (isStopped(ctx, e)) return result;
    if (!isSpacesyncError(e) || e.code === 'cancelled') throw e;
    result.failed.push({ path: INBOX_FILE, code: e.code, message: e.message });
  } finally {
    result.requests = ctx.client.stats().total - before;
  }
  return result;
}

/** Files the user put in Tasks/ beside the task files: never sent, and said so. */
async function strangers(ctx: SyncContext): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(path.join(ctx.root, TASKS_DIR));
  } catch {
    return [];
  }
  const own = new Set([INBOX_FILE, LOGBOOK_FILE]);
  return names
    .map((n) => `${TASKS_DIR}/${n}`)
    .filter((p) => p.endsWith('.md') && !own.has(p) && !ctx.ignore(p) && ctx.journal.getDocumentByPath(p) === undefined)
    .sort();
}

/** The task files' record and the two files as they are (a stranger in Tasks/, a file not UTF-8: held back, and said). */
async function readTaskFiles(ctx: SyncContext, result: TaskFilesResult) {
  const { journal, root } = ctx;
  for (const p of await strangers(ctx))
    result.held.push({
      path: p,
      message: `"${p}" is not synced: ${TASKS_DIR}/ holds only the task files (Inbox.md, Logbook.md). Move it to another folder to make it a document.`,
    });
  const state = readTaskFilesState(journal);
  const inboxFile = await readMirrorFile(root, INBOX_FILE);
  const logbookFile = await readMirrorFile(root, LOGBOOK_FILE);
  for (const [path, f] of [
    [INBOX_FILE, inboxFile],
    [LOGBOOK_FILE, logbookFile],
  ] as const) {
    if (f?.undecodable)
      result.held.push({
        path,
        message: `"${path}" is not UTF-8 text (a bad byte at offset ${f.undecodable.offset}): it is neither sent nor written over. Save it as UTF-8.`,
      });
  }
  return { state, inboxFile, logbookFile };
}

/** One look at the task files: the space's lists read when due, the inbox's edits sent, both files written from the space. */
async function run(ctx: SyncContext, opts: { fullScan?: boolean }, result: TaskFilesResult): Promise<void> {
  const { journal } = ctx;
  const { state, inboxFile, logbookFile } = await readTaskFiles(ctx, result);
  // A missing file is written again from the space: deleting the file deletes no task.
  const inboxEdited = inboxFile !== null && !inboxFile.undecodable && inboxFile.hash !== state?.inboxHash;
  const logbookEdited = state !== null && logbookFile !== null && !logbookFile.undecodable && logbookFile.hash !== state.logbookHash;
  const filesAsRecorded = state !== null && inboxFile?.hash === state.inboxHash && logbookFile?.hash === state.logbookHash;

  const listInbox = async () => (await ctx.client.listTasks({ scope: 'inbox' })).items.map(entryOf);
  const listLogbook = async () => (await ctx.client.listTasks({ scope: 'logbook' })).items.filter((t) => t.location?.type === 'inbox').map(entryOf);

  let inbox = await listInbox();
  const logbookDue =
    state === null ||
    opts.fullScan === true ||
    inboxEdited ||
    logbookEdited ||
    !sameList(inbox, state.inbox) ||
    ctx.now().getTime() - Date.parse(state.logbookAt) >= ctx.settings.fullScanMinutes * 60_000;
  if (!logbookDue && filesAsRecorded) {
    result.quiet = true;
    return;
  }
  let logbookAt = state?.logbookAt ?? ctx.now().toISOString();
  let logbook = state?.logbook ?? [];
  if (logbookDue) {
    logbookAt = ctx.now().toISOString();
    logbook = await listLogbook();
  }
  result.pulled = state === null ? inbox.map((t) => ({ action: 'created', text: t.text })) : tasksChanged(state.inbox, inbox, logbook);

  // Backup mode: an inbox edited here is kept, never sent, until the space changes the inbox.
  const backup = ctx.settings.mode === 'backup';
  if (backup && (inboxEdited || logbookEdited) && state !== null && sameList(inbox, state.inbox) && sameList(logbook, state.logbook)) {
    writeTaskFilesState(journal, { ...state, inbox, logbook, logbookAt });
    return;
  }
  if (inboxEdited && inboxFile?.text != null && !backup) {
    const plan = planTaskFiles(state?.inbox ?? [], parseTaskList(inboxFile.text), { inbox, logbook });
    for (const c of plan.conflicts) {
      const task = inbox.find((t) => t.id === c.id)?.text ?? c.id;
      result.notices.push(
        `"${INBOX_FILE}": the ${FIELD_WORDS[c.field]} of the task "${task}" was changed here (${c.local || 'removed'}) and in the space (${c.remote || 'removed'}): the space's is kept; yours is in the version history (spacesync history "${INBOX_FILE}").`,
      );
    }
    if (await send(ctx, plan, state?.inbox ?? [], result)) {
      inbox = await listInbox();
      logbook = await listLogbook();
      logbookAt = ctx.now().toISOString();
    }
  }

  const next: TaskFilesState = { inbox, logbook, logbookAt, inboxHash: state?.inboxHash ?? '', logbookHash: state?.logbookHash ?? '' };
  const inboxHash = await writeFrom(ctx, INBOX_FILE, inboxFile, renderTaskList(inbox), inboxEdited ? (backup ? 'backup' : 'merge') : null, result);
  const logbookHash = await writeFrom(
    ctx,
    LOGBOOK_FILE,
    logbookFile,
    renderTaskList(logbook),
    logbookEdited ? (backup ? 'backup' : 'read-only') : null,
    result,
  );
  if (logbookEdited)
    result.notices.push(
      `"${LOGBOOK_FILE}" is read-only (the inbox tasks completed or canceled): your edit was not sent and the file was written again from the space; your version is in the version history (spacesync history "${LOGBOOK_FILE}"). To reopen a task, add it to "${INBOX_FILE}" or reopen it in the app.`,
    );
  // A file the user changed while the cycle ran keeps its base: the next cycle merges it.
  if (inboxHash !== null) next.inboxHash = inboxHash;
  else next.inbox = state?.inbox ?? [];
  if (logbookHash !== null) next.logbookHash = logbookHash;
  writeTaskFilesState(journal, next);
}

/** What the space changed between the inbox as last synced and as listed now, by task. */
function tasksChanged(before: readonly TaskEntry[], now: readonly TaskEntry[], logbook: readonly TaskEntry[]): TaskChange[] {
  const was = new Map(before.map((t) => [t.id, t]));
  const is = new Set(now.map((t) => t.id));
  const out: TaskChange[] = [];
  for (const t of now) {
    const b = was.get(t.id);
    if (!b) out.push({ action: 'created', text: t.text });
    else if (b.text !== t.text || b.scheduleDate !== t.scheduleDate || b.deadlineDate !== t.deadlineDate) out.push({ action: 'updated', text: t.text });
  }
  // Gone from the inbox: completed or canceled (the logbook has it now), or deleted.
  const done = new Set(logbook.map((t) => t.id));
  for (const b of before) if (!is.has(b.id)) out.push({ action: done.has(b.id) ? 'completed' : 'deleted', text: b.text });
  return out;
}

/** The changes a plan sends, by task text (the base names the tasks it updates or removes). */
function sentChanges(plan: TaskFilesPlan, base: readonly TaskEntry[]): TaskChange[] {
  const text = (id: string) => base.find((t) => t.id === id)?.text ?? id;
  return [
    ...plan.create.map((l): TaskChange => ({ action: l.state === 'todo' ? 'created' : 'completed', text: l.text })),
    ...plan.update.map((u): TaskChange => ({ action: u.state !== undefined ? 'completed' : 'updated', text: u.text ?? text(u.id) })),
    ...plan.remove.map((id): TaskChange => ({ action: 'deleted', text: text(id) })),
  ];
}

/** Sends the plan, one request per kind; true when anything was sent. */
async function send(ctx: SyncContext, plan: TaskFilesPlan, base: readonly TaskEntry[], result: TaskFilesResult): Promise<boolean> {
  const updates = plan.update.map(wireUpdate);
  result.sent.push(...sentChanges(plan, base));
  if (plan.create.length > 0) {
    const created = await ctx.client.createTasks({ tasks: plan.create.map(newTask) });
    // A line added ticked is created, then completed. The answer lists the tasks in the order sent.
    plan.create.forEach((l, i) => {
      const id = created.items[i]?.id;
      if (l.state !== 'todo' && id) updates.push({ id, taskInfo: { state: l.state } });
    });
  }
  if (updates.length > 0) await ctx.client.updateTasks({ tasksToUpdate: updates });
  if (plan.remove.length > 0) await ctx.client.deleteTasks({ idsToDelete: plan.remove });
  return plan.create.length + updates.length + plan.remove.length > 0;
}

/**
 * Writes the file from the space when its bytes differ, unless it changed since it was read. What
 * the user wrote (`cause` set) and the sync replaces is kept in the version history first. Returns
 * the hash the file holds as recorded, or null when it was left for the next cycle.
 */
async function writeFrom(
  ctx: SyncContext,
  path: string,
  file: Awaited<ReturnType<typeof readMirrorFile>>,
  text: string,
  cause: string | null,
  result: TaskFilesResult,
): Promise<string | null> {
  if (file?.undecodable) return null;
  if (file && file.text === text) return file.hash;
  if (file && cause !== null) await saveLocalVersion(ctx, { path, docId: null, text: file.text, replacement: text, cause });
  const w = await writeFileIfUnchanged(ctx.root, path, text, file?.hash ?? null, { ownWrites: ctx.ownWrites });
  if (!w.written) {
    result.notices.push(`"${path}" changed while the sync wrote it: it is left as it is and merged by the next cycle.`);
    return null;
  }
  result.written.push(path);
  return w.hash ?? hashText(text);
}
