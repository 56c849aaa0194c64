// A task block as `GET /tasks` and `PUT /tasks` show it: its text, its state and dates, where it
// lives (inbox, daily note, document with title) and when it was completed or canceled.
import type { TaskInfo, TaskState } from '../../dialect/types.js';
import type { BlockRow } from '../store/blocks.js';
import type { DocumentRow } from '../store/documents.js';
import { parseData } from './blockData.js';

export type TaskLocationJson = { type: 'inbox' } | { type: 'dailyNote'; date: string } | { type: 'document'; documentId: string; title: string };

export interface TaskJson {
  id: string;
  markdown: string;
  taskInfo: { state: TaskState; scheduleDate?: string; deadlineDate?: string };
  location: TaskLocationJson;
  completedAt?: string;
  canceledAt?: string;
}

export function isTask(row: Pick<BlockRow, 'data'>): boolean {
  return parseData(row.data).listStyle === 'task';
}

export function taskInfoOf(row: Pick<BlockRow, 'data'>): TaskInfo {
  return parseData(row.data).taskInfo ?? { state: 'todo' };
}

/** The task date: the schedule date when present, else the deadline date. */
export function taskDate(t: TaskInfo): string | undefined {
  return t.scheduleDate ?? t.deadlineDate;
}

export function taskLocation(doc: DocumentRow): TaskLocationJson {
  if (doc.location === 'inbox') return { type: 'inbox' };
  if (doc.location === 'daily_notes' && doc.daily_note_date !== null) return { type: 'dailyNote', date: doc.daily_note_date };
  return { type: 'document', documentId: doc.id, title: doc.title };
}

/** The task's own fields (no location): what `POST /tasks` answers. */
export function taskCore(row: BlockRow): Pick<TaskJson, 'id' | 'markdown' | 'taskInfo'> {
  const t = taskInfoOf(row);
  return {
    id: row.id,
    markdown: parseData(row.data).body ?? '',
    taskInfo: { state: t.state, ...(t.scheduleDate ? { scheduleDate: t.scheduleDate } : {}), ...(t.deadlineDate ? { deadlineDate: t.deadlineDate } : {}) },
  };
}

export function taskJson(row: BlockRow, doc: DocumentRow): TaskJson {
  const t = taskInfoOf(row);
  return {
    ...taskCore(row),
    location: taskLocation(doc),
    ...(t.state === 'done' && t.completedAt ? { completedAt: t.completedAt } : {}),
    ...(t.state === 'canceled' && t.canceledAt ? { canceledAt: t.canceledAt } : {}),
  };
}
