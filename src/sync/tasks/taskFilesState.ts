// The task files' base in the journal's key/value state: the tasks each file was last written from
// (or read as), in the file's order, with the hash of the bytes then, and when the logbook was last
// listed. A line of a file is tied to its task by this record (alignTaskLines in core/tasks/planTaskFiles).
import type { Journal } from '../../journal/index.js';
import type { TaskEntry } from '../../core/tasks/taskFiles.js';

export interface TaskFilesState {
  inbox: TaskEntry[];
  logbook: TaskEntry[];
  inboxHash: string;
  logbookHash: string;
  /** When the logbook was last listed (ISO). */
  logbookAt: string;
}

const KEY = 'tasks.files';

export function readTaskFilesState(journal: Journal): TaskFilesState | null {
  const s = journal.getState<TaskFilesState>(KEY);
  return s && Array.isArray(s.inbox) && Array.isArray(s.logbook) ? s : null;
}

export function writeTaskFilesState(journal: Journal, state: TaskFilesState): void {
  // An idle poll writes nothing.
  if (JSON.stringify(journal.getState(KEY)) === JSON.stringify(state)) return;
  journal.setState(KEY, state);
}
