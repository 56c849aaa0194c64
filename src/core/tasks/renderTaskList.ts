// A task file's bytes: one task line per task, in the order given (the service's), each with its
// dates as signifiers at the end (dialect/taskDates). An empty list is an empty file.
import { dateSuffix } from '../../dialect/index.js';
import type { TaskLine } from './TaskEntry.js';

const MARK = { todo: ' ', done: 'x', canceled: '-' } as const;

export function renderTaskLine(t: TaskLine): string {
  return `- [${MARK[t.state]}] ${t.text}${dateSuffix(t)}`;
}

export function renderTaskList(tasks: readonly TaskLine[]): string {
  return tasks.map((t) => `${renderTaskLine(t)}\n`).join('');
}
