// One collection as the routes handle it: its block, its row and its schema; saving a schema;
// keeping the collection block's rendered markdown and its document's lastModifiedAt current.
import type { RequestContext } from '../context.js';
import { notFound } from '../http/apiError.js';
import { getBlock, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { getCollection, updateCollection, type CollectionRow } from '../store/collections.js';
import { touchDocument } from '../store/documents.js';
import { parseData } from './blockData.js';
import { collectionMarkdown } from './collectionMarkdown.js';
import { readSchema, type StoredSchema } from './collectionSchema.js';

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
