// A task line edited on both sides, merged field by field: its text and each of its dates
// (scheduleDate, deadlineDate) take the side that changed them; a field both sides changed
// differently is a conflict, as for any block edited on both sides.
import { isTaskMarkdown, splitTaskDates, withTaskDates, type TaskDates } from '../../dialect/index.js';
import type { MarkdownEquals } from '../types.js';

/** One field of three: the side that changed it, or undefined when both did, differently. */
function pick<T>(base: T, local: T, remote: T, same: (a: T, b: T) => boolean): { value: T } | undefined {
  if (same(local, remote)) return { value: remote };
  if (same(local, base)) return { value: remote };
  if (same(remote, base)) return { value: local };
  return undefined;
}

/**
 * The merged markdown of a task block changed on both sides (file markdowns, dates as signifiers),
 * or undefined when a field was changed differently on both (a conflict) or one of them is no task.
 */
export function mergeTaskLine(base: string, local: string, remote: string, equals: MarkdownEquals): string | undefined {
  if (!isTaskMarkdown(base) || !isTaskMarkdown(local) || !isTaskMarkdown(remote)) return undefined;
  const b = splitTaskDates(base);
  const l = splitTaskDates(local);
  const r = splitTaskDates(remote);
  const text = pick(b.markdown, l.markdown, r.markdown, equals);
  if (!text) return undefined;
  const dates: TaskDates = {};
  for (const k of ['scheduleDate', 'deadlineDate'] as const) {
    const d = pick(b[k] ?? '', l[k] ?? '', r[k] ?? '', (x, y) => x === y);
    if (!d) return undefined;
    if (d.value !== '') dates[k] = d.value;
  }
  return withTaskDates(text.value, dates);
}
