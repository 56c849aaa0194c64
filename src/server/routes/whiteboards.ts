// Whiteboards (experimental): create one at a position; list, append, partly update and delete
// its drawing elements, at most 500 per request. Elements keep every extra property they carry.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { notFound, validationFailed } from '../http/apiError.js';
import { parseBody } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { getBlock, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { touchDocument } from '../store/documents.js';
import { deleteElement, elementsOf, getWhiteboard, insertElement, insertWhiteboard, updateElement } from '../store/whiteboards.js';
import { insertPrepared } from '../model/blockWrites.js';
import { positionOf, positionSchema, resolveTarget } from '../model/position.js';

export const MAX_ELEMENTS_PER_REQUEST = 500;

const num = z.number().finite();
const element = z.looseObject({
  id: z.string().min(1, 'An element id cannot be empty.').optional(),
  type: z.string().min(1).optional(),
  x: num.optional(),
  y: num.optional(),
  width: num.optional(),
  height: num.optional(),
  text: z.string().optional(),
  points: z.array(z.array(num)).optional(),
});
const limited = <T extends z.ZodType>(item: T, field: string) =>
  z
    .array(item)
    .min(1, `'${field}' must list at least one element.`)
    .max(MAX_ELEMENTS_PER_REQUEST, `'${field}' can list at most ${MAX_ELEMENTS_PER_REQUEST} elements per request: split the request.`);
const appendBody = z.object({ elements: limited(element, 'elements') });
const updateBody = z.object({ elements: limited(element.extend({ id: z.string().min(1, 'Each element to update needs its id.') }), 'elements') });
const deleteBody = z.object({ elementIds: limited(z.string().min(1), 'elementIds') });

type Element = Record<string, unknown> & { id: string };

function whiteboardBlock(ctx: RequestContext, id: string): BlockRow {
  const block = getBlock(ctx.db, id);
  if (!block || block.type !== 'whiteboard') throw notFound(`Whiteboard ${id}`);
  if (!getWhiteboard(ctx.db, id)) insertWhiteboard(ctx.db, { block_id: id, assets: null, app_state: null });
  return block;
}

function content(ctx: RequestContext, id: string): { elements: Element[]; assets?: Record<string, unknown>; appState?: Record<string, unknown> } {
  const wb = getWhiteboard(ctx.db, id)!;
  return {
    elements: elementsOf(ctx.db, id).map((e) => JSON.parse(e.element) as Element),
    ...(wb.assets !== null ? { assets: JSON.parse(wb.assets) as Record<string, unknown> } : {}),
    ...(wb.app_state !== null ? { appState: JSON.parse(wb.app_state) as Record<string, unknown> } : {}),
  };
}

/** A drawing change is a change of the whiteboard block and of its document. */
function changed(ctx: RequestContext, block: BlockRow): void {
  updateBlockContent(ctx.db, block.id, { type: block.type, data: block.data, markdown: block.markdown, modifiedAt: ctx.now, modifiedBy: ctx.space.userId });
  touchDocument(ctx.db, block.doc_id, ctx.now);
}

export function registerWhiteboards(api: ApiRouter): void {
  api.post(
    '/whiteboards',
    (ctx, req) => {
      const raw = (req.body ?? {}) as Record<string, unknown>;
      const position = parseBody(positionSchema, positionOf(raw));
      const target = resolveTarget(ctx, position);
      const [id] = insertPrepared(ctx, target.parent, target.pos, [{ type: 'whiteboard', data: { body: '' }, children: [] }]);
      insertWhiteboard(ctx.db, { block_id: id!, assets: null, app_state: null });
      return { whiteboardBlockId: id! };
    },
    { blockOperation: true },
  );

  api.get('/whiteboards/:whiteboardBlockId/elements', (ctx, req) => {
    const block = whiteboardBlock(ctx, req.params.whiteboardBlockId!);
    return content(ctx, block.id);
  });

  api.post('/whiteboards/:whiteboardBlockId/elements', (ctx, req) => {
    const body = parseBody(appendBody, req.body);
    const block = whiteboardBlock(ctx, req.params.whiteboardBlockId!);
    const existing = elementsOf(ctx.db, block.id);
    const ids = new Set(existing.map((e) => e.id));
    const issues: Array<{ message: string; path: Array<string | number> }> = [];
    const elements = body.elements.map((e, i): Element => {
      const id = e.id ?? newId();
      if (ids.has(id))
        issues.push({
          message: `Element id ${id} is already on this whiteboard (or sent twice): update it with PUT, or send a new id.`,
          path: ['elements', i, 'id'],
        });
      ids.add(id);
      return { ...e, id };
    });
    if (issues.length > 0) throw validationFailed(issues);
    let pos = (existing[existing.length - 1]?.pos ?? -1) + 1;
    for (const e of elements) insertElement(ctx.db, { block_id: block.id, id: e.id, pos: pos++, element: JSON.stringify(e) });
    changed(ctx, block);
    return content(ctx, block.id);
  });

  api.put('/whiteboards/:whiteboardBlockId/elements', (ctx, req) => {
    const body = parseBody(updateBody, req.body);
    const block = whiteboardBlock(ctx, req.params.whiteboardBlockId!);
    const current = new Map(elementsOf(ctx.db, block.id).map((e) => [e.id, JSON.parse(e.element) as Element]));
    for (const e of body.elements) {
      const old = current.get(e.id);
      if (!old) throw notFound(`Element ${e.id} of whiteboard ${block.id}`);
      // Only the properties sent change.
      const next = { ...old, ...e };
      current.set(e.id, next);
      updateElement(ctx.db, block.id, e.id, JSON.stringify(next));
    }
    changed(ctx, block);
    return content(ctx, block.id);
  });

  api.delete('/whiteboards/:whiteboardBlockId/elements', (ctx, req) => {
    const body = parseBody(deleteBody, req.body);
    const block = whiteboardBlock(ctx, req.params.whiteboardBlockId!);
    let deletedCount = 0;
    for (const id of new Set(body.elementIds)) if (deleteElement(ctx.db, block.id, id)) deletedCount++;
    if (deletedCount > 0) changed(ctx, block);
    return { deletedCount, remainingCount: elementsOf(ctx.db, block.id).length };
  });
}
