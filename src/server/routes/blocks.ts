// Blocks: read a block or document (JSON or rendered markdown), insert, update, delete, move,
// and search inside a document.
import { z } from 'zod';
import { isPageLike, renderDocumentMarkdown } from '../../dialect/index.js';
import { RawBody, type ApiRequest, type ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { badRequest, notFound, notFoundPlural, validationFailed } from '../http/apiError.js';
import { parseBody, queryBool, queryInt, queryString } from '../http/query.js';
import { resolveDate } from '../dates.js';
import { dailyNote, touchDocument } from '../store/documents.js';
import { getBlock, openGap, placeBlock, setDocumentOf, subtreeBlocks, subtreeIds, updateBlockContent } from '../store/blocks.js';
import { buildTree, childrenIndex, readTree } from '../model/readTree.js';
import { blockJson } from '../model/blockJson.js';
import { parseData } from '../model/blockData.js';
import {
  applyUpdate,
  blockText,
  markdownOf,
  newBlockSchema,
  prepareMarkdown,
  prepareNewBlock,
  prepareTaskStamps,
  updateBlockSchema,
  type PreparedBlock,
} from '../model/blockInput.js';
import { positionOf, positionSchema, resolveTarget } from '../model/position.js';
import { deleteSubtrees, insertPrepared } from '../model/blockWrites.js';
import { registerBlockSearch } from './blocksSearch.js';

const insertBody = z.object({
  blocks: z.array(newBlockSchema).min(1).optional(),
  markdown: blockText.optional(),
});
const updateBody = z.object({ blocks: z.array(updateBlockSchema).min(1) });
const idsBody = z.object({ blockIds: z.array(z.string().min(1)).min(1) });

function wantsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const md = types.indexOf('text/markdown');
  const json = types.indexOf('application/json');
  return md >= 0 && (json < 0 || md < json);
}

function existing(ctx: RequestContext, id: string, plural = false) {
  const row = getBlock(ctx.db, id);
  if (!row) throw plural ? notFoundPlural('Block') : notFound('Block');
  return row;
}

export function registerBlocks(api: ApiRouter): void {
  api.get('/blocks', readBlock, { blockOperation: true });
  api.post('/blocks', insertBlocks, { blockOperation: true, nestedBlocks: true });
  api.put('/blocks', updateBlocks, { blockOperation: true });
  api.delete('/blocks', deleteBlocks, { blockOperation: true });
  api.put('/blocks/move', moveBlocks, { blockOperation: true });
  registerBlockSearch(api);
}

/** `GET /blocks`: a block or a daily note with its content to a depth, as JSON or rendered markdown. */
function readBlock(ctx: RequestContext, req: ApiRequest) {
  const id = queryString(req.query, 'id');
  const date = queryString(req.query, 'date');
  if (id === undefined && date === undefined) throw validationFailed([{ message: "Either 'date' or 'id' must be specified." }]);
  if (id !== undefined && date !== undefined) throw validationFailed([{ message: "Only one of 'date' or 'id' can be specified." }]);
  const maxDepth = queryInt(req.query, 'maxDepth', -1, -1);
  const fetchMetadata = queryBool(req.query, 'fetchMetadata', false);
  let rootId = id;
  if (date !== undefined) {
    const day = resolveDate(date, ctx.now, ctx.space.timezone);
    if (day === undefined) throw validationFailed([{ message: "'date' must be YYYY-MM-DD, today, tomorrow or yesterday.", path: ['date'] }]);
    const note = dailyNote(ctx.db, day);
    if (!note) throw notFound(`Daily note of ${day}`);
    rootId = note.id;
  }
  const block = readTree(ctx, rootId!, maxDepth, fetchMetadata);
  if (!block) throw notFound('Block');
  if (wantsMarkdown(req.headers.accept)) {
    const text = isPageLike(block) ? renderDocumentMarkdown(block) : (block.markdown ?? '');
    return new RawBody('text/markdown; charset=utf-8', text);
  }
  return block;
}

/** `POST /blocks`: blocks or markdown inserted at a position. */
function insertBlocks(ctx: RequestContext, req: ApiRequest) {
  const raw = (req.body ?? {}) as Record<string, unknown>;
  const body = parseBody(insertBody, raw);
  if ((body.blocks === undefined) === (body.markdown === undefined)) {
    throw validationFailed([{ message: "Send either 'blocks' or 'markdown'." }]);
  }
  const position = parseBody(positionSchema, positionOf(raw));
  let prepared: PreparedBlock[];
  if (body.markdown !== undefined) {
    prepared = prepareMarkdown(body.markdown, ctx.media);
    for (const b of prepared) prepareTaskStamps(b, ctx.now);
  } else {
    prepared = body.blocks!.flatMap((b) => prepareNewBlock(b, ctx.now, ctx.space.timezone, ctx.media));
  }
  if (prepared.length === 0) return { items: [] };
  const target = resolveTarget(ctx, position);
  const ids = insertPrepared(ctx, target.parent, target.pos, prepared);
  // The answer shows what was written (those blocks were counted once, as written), read back
  // alone: the rest of the document, however large, is not loaded for it.
  return {
    items: ids.map((newId) => {
      const rows = subtreeBlocks(ctx.db, newId);
      const root = rows.find((r) => r.id === newId)!;
      return buildTree(ctx, root, childrenIndex(rows), -1, false).block;
    }),
  };
}

/** `PUT /blocks`: each block's fields updated; one whose fields do not change is not written. */
function updateBlocks(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(updateBody, req.body);
  const rows = body.blocks.map((b) => existing(ctx, b.id, true));
  const items = body.blocks.map((input, i) => {
    const row = rows[i]!;
    const data = applyUpdate(row, input, ctx.now, ctx.space.timezone, ctx.media);
    const json = JSON.stringify(data);
    if (json !== row.data && !sameData(json, row.data)) {
      updateBlockContent(ctx.db, row.id, {
        type: row.type,
        data: json,
        markdown: markdownOf(row.type as PreparedBlock['type'], data),
        modifiedAt: ctx.now,
        modifiedBy: ctx.space.userId,
      });
      touchDocument(ctx.db, row.doc_id, ctx.now);
    }
    return blockJson(ctx, getBlock(ctx.db, row.id)!);
  });
  ctx.chargeBlocks(items.length);
  return { items };
}

/** `DELETE /blocks`: blocks with their content; documents have their own route. */
function deleteBlocks(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(idsBody, req.body);
  deleteSubtrees(ctx, body.blockIds, (id) => {
    const row = existing(ctx, id);
    if (row.parent_id === null) throw badRequest(`Block ${id} is a document: delete documents with DELETE /documents.`);
    return row;
  });
  return { items: body.blockIds.map((id) => ({ id })) };
}

/** `PUT /blocks/move`: blocks moved together to a position, into another document too, never inside themselves. */
function moveBlocks(ctx: RequestContext, req: ApiRequest) {
  const raw = (req.body ?? {}) as Record<string, unknown>;
  const body = parseBody(idsBody, raw);
  const position = parseBody(positionSchema, positionOf(raw));
  const rows = body.blockIds.map((id) => {
    const row = existing(ctx, id);
    if (row.parent_id === null) throw badRequest(`Block ${id} is a document: move documents with PUT /documents/move.`);
    return row;
  });
  if (new Set(body.blockIds).size !== body.blockIds.length) throw badRequest("'blockIds' lists a block twice.");
  if (position.siblingId !== undefined && body.blockIds.includes(position.siblingId)) {
    throw badRequest(`Block ${position.siblingId} is being moved: it cannot also be the sibling to move next to.`);
  }
  const target = resolveTarget(ctx, position);
  const moved = new Set(body.blockIds);
  // A block cannot go inside itself: walk up from the target parent.
  for (let at: string | null = target.parent.id; at !== null; at = getBlock(ctx.db, at)?.parent_id ?? null) {
    if (moved.has(at)) throw badRequest(`Block ${at} cannot be moved inside itself.`);
  }
  // Positions after detaching: the sibling's position is stable because gaps are allowed.
  openGap(ctx.db, target.parent.id, target.pos, rows.length);
  rows.forEach((row, i) => {
    placeBlock(ctx.db, row.id, target.parent.id, target.pos + i);
    if (row.doc_id !== target.parent.doc_id) {
      setDocumentOf(ctx.db, subtreeIds(ctx.db, row.id), target.parent.doc_id);
      touchDocument(ctx.db, row.doc_id, ctx.now);
    }
    updateBlockContent(ctx.db, row.id, { type: row.type, data: row.data, markdown: row.markdown, modifiedAt: ctx.now, modifiedBy: ctx.space.userId });
  });
  touchDocument(ctx.db, target.parent.doc_id, ctx.now);
  ctx.chargeBlocks(rows.length);
  return { items: body.blockIds.map((id) => ({ id })) };
}

/** Two stored field sets are the same whatever their key order. */
function sameData(a: string, b: string): boolean {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(parseData(a))) === JSON.stringify(sort(parseData(b)));
}
