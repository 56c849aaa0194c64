// What the task files' slice says: its part of a cycle's report (each task the inbox file sent, by
// its text, on the side it came from; the files held back as problems, the one-time notices as
// notes), and its part of the cycle's plan (what the inbox file's changes would send, the files
// written from the space).
import type { Change, Problem, ReportPart } from '../../core/report/cycleReport.js';
import { planTaskFiles } from '../../core/tasks/planTaskFiles.js';
import { INBOX_FILE, LOGBOOK_FILE, parseTaskList, renderTaskList } from '../../core/tasks/taskFiles.js';
import { readMirrorFile } from '../../mirror/index.js';
import type { SyncContext } from '../context/index.js';
import { entryOf, type TaskFilesResult } from './syncTaskFiles.js';
import { readTaskFilesState } from './taskFilesState.js';

export function tasksPart(t: TaskFilesResult): ReportPart {
  const task =
    (side: Change['side']) =>
    (c: TaskFilesResult['sent'][number]): Change => ({ kind: 'task', side, action: c.action, path: INBOX_FILE, title: c.text });
  return {
    changes: [...t.sent.map(task('local')), ...t.pulled.map(task('remote'))],
    problems: [
      ...t.held.map((h): Problem => ({ key: `tasks:${h.path}`, path: h.path, severity: 'held', message: h.message })),
      ...t.failed.map((f): Problem => ({
        key: `tasks:send:${f.path}`,
        path: f.path,
        severity: 'failed',
        message: `Could not sync the inbox tasks (${f.message}); nothing was written, and the next cycle tries again.`,
      })),
    ],
    notes: t.notices,
    requests: t.requests,
  };
}

/** The task files: what the inbox file's changes would send, and the files written from the space. */
export async function tasksPlan(ctx: SyncContext): Promise<{ changes: Change[]; write: string[] }> {
  const plan: { changes: Change[]; write: string[] } = { changes: [], write: [] };
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
