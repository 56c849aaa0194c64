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
