// Ties the lines of a task file to the tasks it was written from (the base, in the file's order).
// Lines equal to a base task in text and dates anchor the match (a longest common subsequence, so a
// reordered file keeps its ties); then each task left over, in order, pairs with the most alike line
// left over when their texts are at least half alike (an edited line: its text, its dates or both), and
// what is left over is a task deleted or a line added (a line rewritten beyond recognition is both). A line's state is not part
// of the match: ticking a line keeps it tied to its task.
import { similarity } from '../merge/blockContent.js';
import { matchSequences } from '../merge/sequenceMatch.js';
import type { TaskEntry, TaskLine } from './TaskEntry.js';

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
