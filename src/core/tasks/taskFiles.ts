// Where the task inbox and its logbook live in the mirror: two files in a directory of their own at
// the root. The directory's name is reserved like the built-in locations' (Unsorted, Trash…): a space
// folder of that name is laid out with the suffix of its id instead (core/pull/layout.ts).
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
