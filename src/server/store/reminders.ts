// Queries of block reminders (one per block).
import { stmt, type Db } from './openStore.js';

export interface ReminderRow {
  id: string;
  block_id: string;
  remind_at: number | null;
  is_completed: number;
  completed_at: number | null;
  created_at: number;
}

export function allReminders(db: Db): ReminderRow[] {
  return stmt(db, 'SELECT * FROM reminders ORDER BY created_at, id').all() as ReminderRow[];
}

export function insertReminder(db: Db, r: ReminderRow): void {
  stmt(db, `INSERT INTO reminders (id, block_id, remind_at, is_completed, completed_at, created_at)
    VALUES (@id, @block_id, @remind_at, @is_completed, @completed_at, @created_at)`).run(r);
}
