// What the inbox file's changes become, merged three ways: base (the tasks the file was written
// from, in its order), local (the file's lines now) and remote (the space's inbox and logbook now).
// Per task: a field (text, schedule date, deadline date) changed here and not there is sent; changed
// on both sides alike is nothing; changed on both differently keeps the space's and is reported as a
// conflict. A ticked line completes the task (unless the space did already). A deleted line deletes
// the task, unless the space changed it meanwhile (an edit beats a delete); a line edited here whose
// task the space deleted is created again. An added line is created, unless the space gained the same
// task since (the same text and dates: it was sent before and the answer was lost, or added on both
// sides alike). Order is the service's: a moved line is not sent.
import { markdownEquals } from '../../dialect/index.js';
import { alignTaskLines } from './alignTaskLines.js';
import { TASK_FIELDS, type TaskEntry, type TaskField, type TaskLine, type TaskLineState } from './TaskEntry.js';

export interface TaskUpdateStep {
  id: string;
  text?: string;
  /** null clears the date. */
  scheduleDate?: string | null;
  deadlineDate?: string | null;
  state?: Exclude<TaskLineState, 'todo'>;
}

export interface TaskFilesPlan {
  /** New tasks for the inbox, in the file's order; a ticked one is completed once created. */
  create: TaskLine[];
  update: TaskUpdateStep[];
  remove: string[];
  /** Fields changed on both sides differently: the space's value stays. */
  conflicts: Array<{ id: string; field: TaskField; local: string; remote: string }>;
  /** Added lines that are a task the space gained meanwhile: tied to it, not sent. */
  adopted: string[];
}

export interface RemoteTasks {
  inbox: readonly TaskEntry[];
  /** The logbook's inbox tasks (completed or canceled). */
  logbook: readonly TaskEntry[];
}

const value = (t: TaskLine, f: TaskField): string => t[f] ?? '';
const same = (f: TaskField, a: string, b: string) => (f === 'text' ? a === b || markdownEquals(a, b) : a === b);

export function planTaskFiles(base: readonly TaskEntry[], local: readonly TaskLine[], remote: RemoteTasks): TaskFilesPlan {
  const plan: TaskFilesPlan = { create: [], update: [], remove: [], conflicts: [], adopted: [] };
  const remoteById = new Map<string, TaskEntry>();
  for (const t of [...remote.logbook, ...remote.inbox]) remoteById.set(t.id, t);
  const align = alignTaskLines(base, local);

  base.forEach((b, i) => {
    const r = remoteById.get(b.id);
    const li = align.lineOf.get(i);
    if (li === undefined) {
      // Deleted here: deleted there too when the space left it as it was and it is still open.
      if (r && r.state === 'todo' && TASK_FIELDS.every((f) => same(f, value(r, f), value(b, f)))) plan.remove.push(b.id);
      return;
    }
    const l = local[li]!;
    const changed = TASK_FIELDS.filter((f) => !same(f, value(l, f), value(b, f)));
    if (changed.length === 0 && l.state === 'todo') return;
    if (!r) {
      if (changed.length > 0) plan.create.push(l);
      return;
    }
    const step: TaskUpdateStep = { id: b.id };
    for (const f of changed) {
      const lv = value(l, f);
      const rv = value(r, f);
      if (same(f, rv, lv)) continue;
      if (!same(f, rv, value(b, f))) {
        plan.conflicts.push({ id: b.id, field: f, local: lv, remote: rv });
        continue;
      }
      if (f === 'text') step.text = lv;
      else step[f] = lv === '' ? null : lv;
    }
    if (l.state !== 'todo' && r.state === 'todo') step.state = l.state;
    if (Object.keys(step).length > 1) plan.update.push(step);
  });

  const baseIds = new Set(base.map((b) => b.id));
  const gained = remote.inbox.filter((t) => !baseIds.has(t.id));
  for (const li of align.added) {
    const l = local[li]!;
    const k = gained.findIndex((t) => TASK_FIELDS.every((f) => same(f, value(t, f), value(l, f))));
    if (k >= 0) {
      const id = gained[k]!.id;
      plan.adopted.push(id);
      gained.splice(k, 1);
      // Added ticked: completed, as a new line ticked is once created.
      if (l.state !== 'todo') plan.update.push({ id, state: l.state });
      continue;
    }
    plan.create.push(l);
  }
  return plan;
}
