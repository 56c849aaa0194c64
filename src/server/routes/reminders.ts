// Block reminders (experimental). With an ordinary link they belong to the link's creator and are
// available only while that creator is the only active participant of the space; otherwise every
// reminder request gets an explicit availability error. One reminder per block: creating one on
// a block that has one replaces it. Lists page by an opaque cursor, by creation time then id.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { ApiError, notFound, validationFailed } from '../http/apiError.js';
import { parseBody, queryInt, queryString } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { isoTime } from '../dates.js';
import { getBlock } from '../store/blocks.js';
import {
  deleteReminder,
  getReminder,
  insertReminder,
  listReminders,
  reminderOfBlock,
  updateReminder,
  type ReminderRow,
  type ReminderStatus,
} from '../store/reminders.js';
import { parseData } from '../model/blockData.js';
import type { Reminder } from '../../wire/types.js';

const STATUSES: readonly ReminderStatus[] = ['incomplete', 'completed', 'upcoming', 'all'];
export const MAX_CURSOR_LENGTH = 256;

const remindAt = z.iso.datetime({ offset: true, message: "'remindAt' must be an ISO 8601 date-time with Z or an offset, e.g. 2026-09-05T09:00:00+02:00." });
const createBody = z.object({
  reminders: z.array(z.object({ blockId: z.string().min(1), remindAt: remindAt.optional() })).min(1, "'reminders' must list at least one reminder."),
});
const updateBody = z.object({
  remindersToUpdate: z
    .array(z.object({ id: z.string().min(1), remindAt: remindAt.nullable().optional(), isCompleted: z.boolean().optional() }))
    .min(1, "'remindersToUpdate' must list at least one reminder."),
});
const deleteBody = z.object({ idsToDelete: z.array(z.string().min(1)).min(1, "'idsToDelete' must list at least one id.") });

/** A reminder as the API returns it (the wire contract's Reminder). */
export type ReminderJson = Reminder;

export function remindersUnavailable(): ApiError {
  return new ApiError(403, {
    error:
      "Reminders are not available for this link: its reminders belong to the link's creator, who must be the only active participant of the space. Use a sign-in connection, or leave reminders out.",
    code: 'REMINDERS_UNAVAILABLE',
  });
}

function reminderJson(ctx: RequestContext, r: ReminderRow): ReminderJson {
  const block = getBlock(ctx.db, r.block_id)!;
  const body = parseData(block.data).body ?? '';
  return {
    id: r.id,
    blockId: r.block_id,
    // The block's text; blocks without text (media, lines) show their markdown.
    title: body !== '' ? body : ctx.media.signAll(block.markdown, ctx.origin, ctx.now),
    ...(r.remind_at !== null ? { remindAt: isoTime(r.remind_at) } : {}),
    isCompleted: r.is_completed === 1,
    ...(r.completed_at !== null ? { completedAt: isoTime(r.completed_at) } : {}),
  };
}

interface Cursor {
  status: ReminderStatus;
  createdAt: number;
  id: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.status, c.createdAt, c.id])).toString('base64url');
}

function decodeCursor(s: string): Cursor | undefined {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 3) return undefined;
    const [status, createdAt, id] = v as [unknown, unknown, unknown];
    if (!STATUSES.includes(status as ReminderStatus) || typeof createdAt !== 'number' || typeof id !== 'string') return undefined;
    return { status: status as ReminderStatus, createdAt, id };
  } catch {
    return undefined;
  }
}

function existing(ctx: RequestContext, id: string): ReminderRow {
  const r = getReminder(ctx.db, id);
  if (!r) throw notFound(`Reminder ${id}`);
  return r;
}

/** `isAvailable` says, at each request, whether the link's creator is the only active participant. */
export function registerReminders(api: ApiRouter, isAvailable: () => boolean): void {
  const guard = () => {
    if (!isAvailable()) throw remindersUnavailable();
  };

  api.get('/reminders', (ctx, req) => {
    guard();
    const status = (queryString(req.query, 'status') ?? 'incomplete') as ReminderStatus;
    if (!STATUSES.includes(status)) throw validationFailed([{ message: `'status' must be one of ${STATUSES.join(', ')}.`, path: ['status'] }]);
    const limit = queryInt(req.query, 'limit', 50, 1, 200);
    const raw = queryString(req.query, 'cursor');
    let after: Cursor | undefined;
    if (raw !== undefined) {
      if (raw.length > MAX_CURSOR_LENGTH) throw validationFailed([{ message: `'cursor' must be at most ${MAX_CURSOR_LENGTH} characters.`, path: ['cursor'] }]);
      after = decodeCursor(raw);
      if (!after || after.status !== status) {
        throw validationFailed([
          { message: "'cursor' is not valid for this list: reuse it with the same 'status', or start again without a cursor.", path: ['cursor'] },
        ]);
      }
    }
    const rows = listReminders(ctx.db, { status, now: ctx.now, limit: limit + 1, ...(after ? { after: { createdAt: after.createdAt, id: after.id } } : {}) });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => reminderJson(ctx, r)),
      pagination: { cursor: rows.length > limit && last ? encodeCursor({ status, createdAt: last.created_at, id: last.id }) : null },
    };
  });

  api.post('/reminders', (ctx, req) => {
    guard();
    const body = parseBody(createBody, req.body);
    const items = body.reminders.map((r) => {
      if (!getBlock(ctx.db, r.blockId)) throw notFound(`Block ${r.blockId}`);
      const old = reminderOfBlock(ctx.db, r.blockId);
      if (old) deleteReminder(ctx.db, old.id);
      const row: ReminderRow = {
        id: newId(),
        block_id: r.blockId,
        remind_at: r.remindAt === undefined ? null : Date.parse(r.remindAt),
        is_completed: 0,
        completed_at: null,
        created_at: ctx.now,
      };
      insertReminder(ctx.db, row);
      return row;
    });
    // A block listed twice keeps its last reminder.
    return { items: items.filter((r) => getReminder(ctx.db, r.id)).map((r) => reminderJson(ctx, r)) };
  });

  api.put('/reminders', (ctx, req) => {
    guard();
    const body = parseBody(updateBody, req.body);
    const items = body.remindersToUpdate.map((u) => {
      const r = existing(ctx, u.id);
      const next = { ...r };
      if (u.remindAt !== undefined) next.remind_at = u.remindAt === null ? null : Date.parse(u.remindAt);
      if (u.isCompleted !== undefined && u.isCompleted !== (r.is_completed === 1)) {
        next.is_completed = u.isCompleted ? 1 : 0;
        next.completed_at = u.isCompleted ? ctx.now : null;
      }
      updateReminder(ctx.db, next);
      return next;
    });
    return { items: items.map((r) => reminderJson(ctx, getReminder(ctx.db, r.id)!)) };
  });

  api.delete('/reminders', (ctx, req) => {
    guard();
    const body = parseBody(deleteBody, req.body);
    for (const id of new Set(body.idsToDelete)) deleteReminder(ctx.db, existing(ctx, id).id);
    return { items: body.idsToDelete };
  });
}
