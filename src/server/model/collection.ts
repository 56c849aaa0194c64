// One collection as the routes handle it: its block, its row and its schema; saving a schema;
// keeping the collection block's rendered markdown and its document's lastModifiedAt current.
import type { RequestContext } from '../context.js';
import { notFound } from '../http/apiError.js';
import { getBlock, updateBlockContent, type BlockRow, childBlocks } from '../store/blocks.js';
import { getCollection, updateCollection, type CollectionRow } from '../store/collections.js';
import { touchDocument } from '../store/documents.js';
import { parseData, type BlockData } from './blockData.js';
import { readSchema, type StoredSchema } from './collectionSchema.js';
import type { Db } from '../store/openStore.js';
import { markdownOf } from './blockInput.js';

export interface LoadedCollection {
  block: BlockRow;
  row: CollectionRow;
  schema: StoredSchema;
}

export function loadCollection(ctx: RequestContext, id: string): LoadedCollection {
  const block = getBlock(ctx.db, id);
  const row = block?.type === 'collection' ? getCollection(ctx.db, id) : undefined;
  if (!block || !row) throw notFound(`Collection ${id}`);
  return { block, row, schema: readSchema(row.schema, row.name) };
}

/** Stores `schema` (its name is the collection's name, also shown as the block's title). */
export function saveSchema(ctx: RequestContext, c: LoadedCollection, schema: StoredSchema): void {
  updateCollection(ctx.db, c.block.id, { name: schema.name, schema: JSON.stringify(schema) });
  const data = parseData(c.block.data);
  if (data.title !== schema.name) {
    updateBlockContent(ctx.db, c.block.id, {
      type: 'collection',
      data: JSON.stringify({ ...data, title: schema.name }),
      markdown: c.block.markdown,
      modifiedAt: ctx.now,
      modifiedBy: ctx.space.userId,
    });
  }
  c.schema = schema;
  c.row = getCollection(ctx.db, c.block.id)!;
}

/** After a change to the collection (schema, items): re-render its markdown and move its document's lastModifiedAt. */
export function collectionChanged(ctx: RequestContext, collectionId: string): void {
  const block = getBlock(ctx.db, collectionId)!;
  updateBlockContent(ctx.db, block.id, {
    type: block.type,
    data: block.data,
    markdown: collectionMarkdown(ctx.db, block),
    modifiedAt: ctx.now,
    modifiedBy: ctx.space.userId,
  });
  touchDocument(ctx.db, block.doc_id, ctx.now);
}

// What a collection block renders from: its stored fields, its name as the title and the schema's
// property keys (so `<properties>` lists every key, not only those items happen to use).
export function collectionFields(db: Db, row: Pick<BlockRow, 'id' | 'data'>): BlockData {
  const data = parseData(row.data);
  const col = getCollection(db, row.id);
  if (!col) return data;
  const schema = readSchema(col.schema, col.name);
  return { ...data, title: col.name, properties: Object.fromEntries(schema.properties.map((p) => [p.key, ''])) };
}

// The stored markdown of a collection block: its items rendered with the output-only tags.
// Call it again whenever the collection's name, schema or items change.
export function collectionMarkdown(db: Db, row: BlockRow): string {
  const asBlock = (r: BlockRow): Record<string, unknown> => {
    const data = parseData(r.data);
    const kids = childBlocks(db, r.id);
    return { ...data, id: r.id, type: r.type, markdown: r.markdown, title: data.body, ...(kids.length ? { content: kids.map(asBlock) } : {}) };
  };
  return markdownOf('collection', collectionFields(db, row), childBlocks(db, row.id).map(asBlock));
}
