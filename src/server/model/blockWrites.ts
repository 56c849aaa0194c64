// Writing blocks: insert prepared blocks at a target, make a block a parent, delete blocks with
// their content, keep every document's lastModifiedAt moving when any of its blocks changes.
import type { RequestContext } from '../context.js';
import type { BlockType } from '../../dialect/index.js';
import { badRequest } from '../http/apiError.js';
import { deleteBlockRows, getBlock, insertBlock, openGap, subtreeIds, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { touchDocument } from '../store/documents.js';
import { newId } from '../store/openStore.js';
import { parseData } from './blockData.js';
import { markdownOf, pageDataFromText, pageLike, type PreparedBlock } from './blockInput.js';

/** A block able to hold children: a page, card or collection item as is; a text block becomes a page. */
export function ensureParent(ctx: RequestContext, row: BlockRow): BlockRow {
  const data = parseData(row.data);
  if (pageLike(row.type, data) || row.type === 'collectionItem') return row;
  if (row.type !== 'text') {
    throw badRequest(`Block ${row.id} is a ${row.type} block: only page, text and card blocks can hold other blocks.`);
  }
  const pageData = pageDataFromText(data);
  updateBlockContent(ctx.db, row.id, {
    type: 'page',
    data: JSON.stringify(pageData),
    markdown: markdownOf('page', pageData),
    modifiedAt: ctx.now,
    modifiedBy: ctx.space.userId,
  });
  touchDocument(ctx.db, row.doc_id, ctx.now);
  return getBlock(ctx.db, row.id)!;
}

/** Inserts `blocks` (with their children) under `parent` from sibling position `pos`; returns the new ids, top level. */
export function insertPrepared(ctx: RequestContext, parent: BlockRow, pos: number, blocks: readonly PreparedBlock[]): string[] {
  openGap(ctx.db, parent.id, pos, blocks.length);
  let count = 0;
  const insert = (b: PreparedBlock, parentId: string, at: number): string => {
    const id = newId();
    count++;
    insertBlock(ctx.db, {
      id,
      doc_id: parent.doc_id,
      parent_id: parentId,
      pos: at,
      type: b.type,
      data: JSON.stringify(b.data),
      markdown: markdownOf(b.type as BlockType, b.data),
      created_at: ctx.now,
      created_by: ctx.space.userId,
      modified_at: ctx.now,
      modified_by: ctx.space.userId,
    });
    b.children.forEach((c, i) => insert(c, id, i));
    return id;
  };
  const ids = blocks.map((b, i) => insert(b, parent.id, pos + i));
  ctx.chargeBlocks(count);
  touchDocument(ctx.db, parent.doc_id, ctx.now);
  return ids;
}

/** Deletes, and charges, the block `find` gives for each id with the blocks below it; one id at a time: one below a block deleted before is not found. */
export function deleteSubtrees(ctx: RequestContext, ids: Iterable<string>, find: (id: string) => BlockRow): void {
  let count = 0;
  for (const id of ids) {
    const row = find(id);
    const deleted = subtreeIds(ctx.db, row.id);
    deleteBlockRows(ctx.db, deleted);
    touchDocument(ctx.db, row.doc_id, ctx.now);
    count += deleted.length;
  }
  ctx.chargeBlocks(count);
}
