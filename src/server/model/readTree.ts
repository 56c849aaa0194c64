// Reads a block with its descendants down to `maxDepth` (-1: all), as `GET /blocks` returns it.
import type { Block } from '../../dialect/types.js';
import type { RequestContext } from '../context.js';
import { documentBlocks, getBlock, type BlockRow } from '../store/blocks.js';
import { blockJson } from './blockJson.js';
import { parseData } from './blockData.js';
import { markdownOf } from './blockInput.js';
import { collectionFields } from './collectionFields.js';

/** Types that hold children, so they show `content` (possibly empty) when expanded. */
export function holdsChildren(row: Pick<BlockRow, 'type' | 'data'>): boolean {
  if (row.type === 'page' || row.type === 'collection' || row.type === 'collectionItem') return true;
  if (row.type !== 'text') return false;
  const style = parseData(row.data).textStyle;
  return style === 'card' || style === 'page';
}

/** Children of every block of a document, siblings in order. */
export function childrenIndex(rows: readonly BlockRow[]): Map<string, BlockRow[]> {
  const index = new Map<string, BlockRow[]>();
  for (const r of rows) {
    if (r.parent_id === null) continue;
    let list = index.get(r.parent_id);
    if (!list) index.set(r.parent_id, (list = []));
    list.push(r);
  }
  for (const list of index.values()) list.sort((a, b) => a.pos - b.pos);
  return index;
}

export function readTree(ctx: RequestContext, id: string, maxDepth: number, metadata: boolean): Block | undefined {
  const root = getBlock(ctx.db, id);
  if (!root) return undefined;
  const index = maxDepth === 0 ? new Map<string, BlockRow[]>() : childrenIndex(documentBlocks(ctx.db, root.doc_id));
  const { block, count } = buildTree(ctx, root, index, maxDepth, metadata);
  ctx.chargeBlocks(count);
  return block;
}

/** A block and its descendants from a preloaded children index; counts the blocks built. */
export function buildTree(
  ctx: RequestContext,
  root: BlockRow,
  index: Map<string, BlockRow[]>,
  maxDepth: number,
  metadata: boolean,
): { block: Block; count: number } {
  let count = 0;
  const build = (row: BlockRow, depth: number): Block => {
    count++;
    const kids = index.get(row.id);
    const expand = maxDepth < 0 || depth < maxDepth;
    const content = expand && (kids !== undefined || holdsChildren(row)) ? (kids ?? []).map((k) => build(k, depth + 1)) : undefined;
    const json = blockJson(ctx, row, { metadata, ...(content !== undefined ? { content } : {}) });
    // A collection renders its items when they are expanded, an empty preview when not.
    if (row.type === 'collection')
      json.markdown = markdownOf('collection', collectionFields(ctx.db, row), content as unknown as Array<Record<string, unknown>> | undefined);
    return json;
  };
  return { block: build(root, 0), count };
}
