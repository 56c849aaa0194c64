// Where the task inbox and its logbook live in the mirror: two files in a directory of their own at
// the root. The directory's name is reserved like the built-in locations' (Unsorted, Trash…): a space
// folder of that name is laid out with the suffix of its id instead (core/pull/layout.ts).
import { dateSuffix, splitTaskDates } from '../../dialect/index.js';
import { collisionKey } from '../files/fileName.js';

export const TASKS_DIR = 'Tasks';
/** The inbox's open tasks, editable. */
export const INBOX_FILE = `${TASKS_DIR}/Inbox.md`;
/** The inbox tasks completed or canceled, read-only. */
export const LOGBOOK_FILE = `${TASKS_DIR}/Logbook.md`;

/** Whether a mirror path is the tasks directory or lies in it (compared as the file system would). */
export function isInTasksDir(relPath: string): boolean {
  return collisionKey(relPath.split('/')[0] ?? '') === collisionKey(TASKS_DIR);
}

// A task of the inbox or the logbook as the task files hold it: its text (the service's markdown
// without the `- [ ] ` prefix), its state and its dates. Ids are the service's; a line of a file is
// tied to its id by the journal's record of the file (alignTaskLines), never by text in the file.
export type TaskLineState = 'todo' | 'done' | 'canceled';

export interface TaskLine {
  state: TaskLineState;
  text: string;
  scheduleDate?: string;
  deadlineDate?: string;
}

export interface TaskEntry extends TaskLine {
  id: string;
}

/** The fields a file can change of a task besides its state. */
export const TASK_FIELDS = ['text', 'scheduleDate', 'deadlineDate'] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

// A task file's text → its task lines. Every line with text is a task: `- [ ] text` is open,
// `- [x]` done, `- [-]` canceled; a line without a checkbox (`- text` or `text`) is an open task too,
// so typing a line is enough to add one. Blank lines and lines with no text are skipped. Trailing
// date signifiers (`⏳ YYYY-MM-DD`, `📅 YYYY-MM-DD`) are read as the task's dates.

const CHECKBOX = /^[ \t]*[-*+][ \t]+\[([ xX-])\](?:[ \t]+|$)(.*)$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;

export function parseTaskLine(line: string): TaskLine | undefined {
  let state: TaskLineState = 'todo';
  let rest: string;
  const box = CHECKBOX.exec(line);
  if (box) {
    state = box[1] === ' ' ? 'todo' : box[1] === '-' ? 'canceled' : 'done';
    rest = box[2]!;
  } else {
    rest = BULLET.exec(line)?.[1] ?? line;
  }
  const split = splitTaskDates(`- [ ] ${rest.trim()}`);
  const text = split.markdown.slice('- [ ] '.length).trim();
  if (text === '') return undefined;
  return {
    state,
    text,
    ...(split.scheduleDate ? { scheduleDate: split.scheduleDate } : {}),
    ...(split.deadlineDate ? { deadlineDate: split.deadlineDate } : {}),
  };
}

export function parseTaskList(text: string): TaskLine[] {
  const out: TaskLine[] = [];
  for (const raw of text.split('\n')) {
    const line = parseTaskLine(raw.replace(/\r$/, ''));
    if (line) out.push(line);
  }
  return out;
}

// A task file's bytes: one task line per task, in the order given (the service's), each with its
// dates as signifiers at the end (dialect/taskDates). An empty list is an empty file.

const MARK = { todo: ' ', done: 'x', canceled: '-' } as const;

export function renderTaskLine(t: TaskLine): string {
  return `- [${MARK[t.state]}] ${t.text}${dateSuffix(t)}`;
}

export function renderTaskList(tasks: readonly TaskLine[]): string {
  return tasks.map((t) => `${renderTaskLine(t)}\n`).join('');
}
