// The position object of inserts and moves: into a page (start/end + pageId), into a daily note
// (start/end + date, created when missing; no target at all means today's), or next to a block
// (before/after + siblingId). Exactly one target form.
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { badRequest, notFound, validationFailed } from '../http/apiError.js';
import { getBlock, lastPos, type BlockRow } from '../store/blocks.js';
import { resolveDate } from '../dates.js';
import { ensureDailyNote } from './createDocument.js';
import { ensureParent } from './blockWrites.js';

export const positionSchema = z.object({
  position: z.enum(['start', 'end', 'before', 'after'], { message: "'position' must be start, end, before or after." }),
  pageId: z.string().min(1).optional(),
  date: z.string().min(1).optional(),
  siblingId: z.string().min(1).optional(),
});
export type PositionInput = z.infer<typeof positionSchema>;

/** The body's position object: nested (`{position: {position, pageId}}`) or flat (`{position: 'end', pageId}`). */
export function positionOf(body: Record<string, unknown>): unknown {
  const p = body.position;
  if (typeof p === 'string') return { position: p, pageId: body.pageId, date: body.date, siblingId: body.siblingId };
  return p ?? { position: 'end' };
}

export interface Target {
  parent: BlockRow;
  /** The sibling position the first block takes. */
  pos: number;
  /** When the target is next to a sibling: it (moves must not move it). */
  sibling: BlockRow | undefined;
}

/** Where the position points; the parent is made able to hold children (a text block becomes a page). */
export function resolveTarget(ctx: RequestContext, p: PositionInput): Target {
  const next = p.position === 'before' || p.position === 'after';
  if (next) {
    if (p.siblingId === undefined)
      throw validationFailed([{ message: `'siblingId' is required with position '${p.position}'.`, path: ['position', 'siblingId'] }]);
    if (p.pageId !== undefined || p.date !== undefined) throw badRequest("A position next to a block takes only 'siblingId': drop 'pageId' and 'date'.");
    const sibling = getBlock(ctx.db, p.siblingId);
    if (!sibling) throw notFound(`Block ${p.siblingId}`);
    if (sibling.parent_id === null)
      throw badRequest(`Block ${p.siblingId} is a document: nothing can be placed next to it; use pageId to place blocks inside it.`);
    const parent = getBlock(ctx.db, sibling.parent_id)!;
    return { parent, pos: p.position === 'before' ? sibling.pos : sibling.pos + 1, sibling };
  }
  if (p.siblingId !== undefined) throw badRequest(`Position '${p.position}' takes 'pageId' or 'date', not 'siblingId'.`);
  if (p.pageId !== undefined && p.date !== undefined) throw badRequest("A position takes 'pageId' or 'date', not both.");
  let parent: BlockRow;
  if (p.pageId !== undefined) {
    const page = getBlock(ctx.db, p.pageId);
    if (!page) throw notFound(`Block ${p.pageId}`);
    if (page.type === 'collection') throw badRequest(`Block ${p.pageId} is a collection: add items with POST /collections/${p.pageId}/items.`);
    parent = ensureParent(ctx, page);
  } else {
    const date = resolveDate(p.date ?? 'today', ctx.now, ctx.space.timezone);
    if (date === undefined) throw validationFailed([{ message: "'date' must be YYYY-MM-DD, today, tomorrow or yesterday.", path: ['position', 'date'] }]);
    parent = getBlock(ctx.db, ensureDailyNote(ctx, date).id)!;
  }
  return { parent, pos: p.position === 'start' ? 0 : lastPos(ctx.db, parent.id) + 1, sibling: undefined };
}
