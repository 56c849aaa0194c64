// Queries of block reminders (one per block).
import { stmt, type Db } from './openStore.js';
import type { ReminderStatus } from '../../wire/types.js';

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
  stmt(
    db,
    `INSERT INTO reminders (id, block_id, remind_at, is_completed, completed_at, created_at)
    VALUES (@id, @block_id, @remind_at, @is_completed, @completed_at, @created_at)`,
  ).run(r);
}

export function getReminder(db: Db, id: string): ReminderRow | undefined {
  return stmt(db, 'SELECT * FROM reminders WHERE id = ?').get(id) as ReminderRow | undefined;
}

export function reminderOfBlock(db: Db, blockId: string): ReminderRow | undefined {
  return stmt(db, 'SELECT * FROM reminders WHERE block_id = ?').get(blockId) as ReminderRow | undefined;
}

export function updateReminder(db: Db, r: Pick<ReminderRow, 'id' | 'remind_at' | 'is_completed' | 'completed_at'>): void {
  stmt(db, 'UPDATE reminders SET remind_at = @remind_at, is_completed = @is_completed, completed_at = @completed_at WHERE id = @id').run(r);
}

export function deleteReminder(db: Db, id: string): void {
  stmt(db, 'DELETE FROM reminders WHERE id = ?').run(id);
}

export type { ReminderStatus };

const STATUS_WHERE: Record<ReminderStatus, string> = {
  incomplete: 'is_completed = 0',
  completed: 'is_completed = 1',
  upcoming: 'is_completed = 0 AND (remind_at IS NULL OR remind_at > @now)',
  all: '1 = 1',
};

/** Up to `limit` reminders of `status` after the (created_at, id) key `after`, by creation then id. */
export function listReminders(db: Db, q: { status: ReminderStatus; now: number; limit: number; after?: { createdAt: number; id: string } }): ReminderRow[] {
  const keyset = q.after ? 'AND (created_at > @afterAt OR (created_at = @afterAt AND id > @afterId))' : '';
  return stmt(db, `SELECT * FROM reminders WHERE ${STATUS_WHERE[q.status]} ${keyset} ORDER BY created_at, id LIMIT @limit`).all({
    now: q.now,
    limit: q.limit,
    ...(q.after ? { afterAt: q.after.createdAt, afterId: q.after.id } : {}),
  }) as ReminderRow[];
}
