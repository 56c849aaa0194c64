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
import { similarity } from '../merge/blockContent.js';
import { matchSequences } from '../merge/sequenceMatch.js';
import { TASK_FIELDS, type TaskEntry, type TaskField, type TaskLine, type TaskLineState } from './taskFiles.js';

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

// Ties the lines of a task file to the tasks it was written from (the base, in the file's order).
// Lines equal to a base task in text and dates anchor the match (a longest common subsequence, so a
// reordered file keeps its ties); then each task left over, in order, pairs with the most alike line
// left over when their texts are at least half alike (an edited line: its text, its dates or both), and
// what is left over is a task deleted or a line added (a line rewritten beyond recognition is both). A line's state is not part
// of the match: ticking a line keeps it tied to its task.

export interface TaskAlignment {
  /** Index of the base task → index of its line. */
  lineOf: Map<number, number>;
  /** Indexes of base tasks whose line is gone. */
  deleted: number[];
  /** Indexes of lines tied to no base task. */
  added: number[];
}

/** How alike two texts must be for a line to be taken as its task edited. */
const ALIKE = 0.5;

const keyOf = (t: TaskLine) => JSON.stringify([t.text, t.scheduleDate ?? '', t.deadlineDate ?? '']);

export function alignTaskLines(base: readonly TaskEntry[], lines: readonly TaskLine[]): TaskAlignment {
  const ids = new Map<string, number>();
  const code = (t: TaskLine) => {
    const k = keyOf(t);
    let n = ids.get(k);
    if (n === undefined) ids.set(k, (n = ids.size));
    return n;
  };
  const { pairs } = matchSequences(Int32Array.from(base.map(code)), Int32Array.from(lines.map(code)));
  const out: TaskAlignment = { lineOf: new Map(), deleted: [], added: [] };
  const tied = new Set<number>();
  for (const [bi, li] of pairs) {
    out.lineOf.set(bi, li);
    tied.add(li);
  }
  const free = lines.map((_, j) => j).filter((j) => !tied.has(j));
  base.forEach((b, i) => {
    if (out.lineOf.has(i)) return;
    let best = -1;
    let score = 0;
    for (const [k, j] of free.entries()) {
      const s = similarity(b.text, lines[j]!.text);
      if (s >= ALIKE && s > score) [best, score] = [k, s];
    }
    if (best < 0) out.deleted.push(i);
    else out.lineOf.set(i, free.splice(best, 1)[0]!);
  });
  out.added = free;
  return out;
}
