// Reads a block with its descendants down to `maxDepth` (-1: all), as `GET /blocks` returns it.
import type { Block } from '../../dialect/types.js';
import type { RequestContext } from '../context.js';
import { documentBlocks, getBlock, type BlockRow } from '../store/blocks.js';
import { blockJson } from './blockJson.js';
import { parseData, type BlockData } from './blockData.js';
import { markdownOf } from './blockInput.js';
import { collectionFields } from './collection.js';
import { contentPreview, itemsPreview } from './previews.js';

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
    // Where the depth limit cuts children off, a short preview of them stands in (the live service's shape).
    const cut = !expand && (kids !== undefined || holdsChildren(row));
    if (row.type === 'collection') {
      const fields = collectionFields(ctx.db, row);
      const preview = cut ? itemsPreview(ctx, row, Object.keys(fields.properties ?? {})) : undefined;
      const json = blockJson(ctx, row, {
        metadata,
        ...(content !== undefined ? { content } : {}),
        ...(preview !== undefined ? { preview: { itemsPreviewMd: preview } } : {}),
      });
      // A collection renders its items when they are expanded, their preview when not.
      const withPreview: BlockData & { itemsPreviewMd?: string } = preview !== undefined ? { ...fields, itemsPreviewMd: preview } : fields;
      json.markdown = markdownOf('collection', withPreview, content as unknown as Array<Record<string, unknown>> | undefined);
      return json;
    }
    const preview = cut ? contentPreview(ctx, row) : undefined;
    return blockJson(ctx, row, {
      metadata,
      ...(content !== undefined ? { content } : {}),
      ...(preview !== undefined ? { preview: { contentPreviewMd: preview } } : {}),
    });
  };
  return { block: build(root, 0), count };
}
