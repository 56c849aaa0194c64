// Collections: list, create at a position, the schema (read in two formats, replace), and items
// (read with a depth, add, update, delete with their content). Views live in collectionViews.ts.
import { z } from 'zod';
import type { ApiRequest, ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { notFound, validationFailed } from '../http/apiError.js';
import { parseBody, queryArray, queryInt, queryString } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { childBlocks, documentBlocks, lastPos, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { collectionsWithDocuments, insertCollection, insertView } from '../store/collections.js';
import { parseData, type BlockData } from '../model/blockData.js';
import { markdownOf } from '../model/blockInput.js';
import { deleteSubtrees, insertPrepared } from '../model/blockWrites.js';
import { buildTree, childrenIndex } from '../model/readTree.js';
import { positionOf, positionSchema, resolveTarget } from '../model/position.js';
import { collectionChanged, loadCollection, saveSchema, type LoadedCollection } from '../model/collection.js';
import { buildSchema, itemsJsonSchema, schemaInput, schemaReadForm, schemaWriteForm } from '../model/collectionSchema.js';
import { checkItemProperties, keepValidValues, throwIssues, type PropertyIssue } from '../model/itemProperties.js';
import { DEFAULT_VIEW } from '../model/collectionViews.js';
import { readingOrder } from './documentsSearch.js';

const createBody = z.object({ schema: schemaInput });
const updateSchemaBody = z.object({ schema: schemaInput });
const properties = z.record(z.string(), z.unknown());
const addItemsBody = z.object({
  items: z.array(z.object({ title: z.string(), properties: properties.optional() })).min(1, "'items' must list at least one item."),
  allowNewSelectOptions: z.boolean().optional(),
});
const updateItemsBody = z.object({
  itemsToUpdate: z
    .array(z.object({ id: z.string().min(1), title: z.string().optional(), properties: properties.optional() }))
    .min(1, "'itemsToUpdate' must list at least one item."),
  allowNewSelectOptions: z.boolean().optional(),
});
const deleteItemsBody = z.object({ idsToDelete: z.array(z.string().min(1)).min(1, "'idsToDelete' must list at least one id.") });

interface ItemJson {
  id: string;
  title: string;
  properties: Record<string, unknown>;
  content?: unknown[];
  /** The depth limit cut the item's content: a preview of it (model/previews.ts). */
  contentPreviewMd?: string;
}

function itemJson(row: BlockRow, read?: { content?: unknown[]; contentPreviewMd?: string }): ItemJson {
  const data = parseData(row.data);
  return {
    id: row.id,
    title: data.body ?? '',
    properties: data.properties ?? {},
    ...(read?.content !== undefined ? { content: read.content } : {}),
    ...(read?.contentPreviewMd !== undefined ? { contentPreviewMd: read.contentPreviewMd } : {}),
  };
}

function itemOf(ctx: RequestContext, c: LoadedCollection, id: string): BlockRow {
  const row = childBlocks(ctx.db, c.block.id).find((r) => r.id === id);
  if (!row || row.type !== 'collectionItem') throw notFound(`Item ${id} of collection ${c.block.id}`);
  return row;
}

function writeItem(ctx: RequestContext, row: BlockRow, data: Record<string, unknown>): void {
  const json = { ...data };
  if (json.properties && Object.keys(json.properties).length === 0) delete json.properties;
  updateBlockContent(ctx.db, row.id, {
    type: 'collectionItem',
    data: JSON.stringify(json),
    markdown: markdownOf('collectionItem', json as BlockData),
    modifiedAt: ctx.now,
    modifiedBy: ctx.space.userId,
  });
}

/**
 * The properties sent for each item merged into its `current` ones and checked against the schema:
 * every issue of the request is thrown at once, and the select options it was allowed to add are saved.
 */
function checkedProperties(
  ctx: RequestContext,
  c: LoadedCollection,
  allowNewSelectOptions: boolean | undefined,
  field: 'items' | 'itemsToUpdate',
  items: Array<{ properties?: Record<string, unknown> | undefined }>,
  current?: BlockData[],
): Array<Record<string, unknown>> {
  const issues: PropertyIssue[] = [];
  let added = false;
  const values = items.map((it, i) => {
    const opts = { allowNewSelectOptions: allowNewSelectOptions === true, now: ctx.now, timezone: ctx.space.timezone, path: [field, i, 'properties'] };
    const r = checkItemProperties(c.schema, current?.[i]?.properties ?? {}, it.properties ?? {}, opts, issues);
    added ||= r.addedOptions;
    return r.values;
  });
  throwIssues(issues);
  if (added) saveSchema(ctx, c, c.schema);
  return values;
}

export function registerCollections(api: ApiRouter): void {
  api.get('/collections', listCollections);
  api.post('/collections', createCollection, { blockOperation: true });
  api.get('/collections/:collectionId/schema', readCollectionSchema);
  api.put('/collections/:collectionId/schema', replaceCollectionSchema);
  api.get('/collections/:collectionId/items', readItems, { blockOperation: true });
  api.post('/collections/:collectionId/items', addItems, { blockOperation: true });
  api.put('/collections/:collectionId/items', updateItems, { blockOperation: true });
  api.delete('/collections/:collectionId/items', deleteItems, { blockOperation: true });
}

/** `GET /collections`: document by document, and within a document in reading order. */
function listCollections(ctx: RequestContext, req: ApiRequest) {
  const wanted = queryArray(req.query, 'documentIds');
  const rows = collectionsWithDocuments(ctx.db).filter((r) => wanted === undefined || wanted.includes(r.doc_id));
  const order = new Map<string, number>();
  for (const docId of new Set(rows.map((r) => r.doc_id))) {
    readingOrder(documentBlocks(ctx.db, docId), docId).forEach((b, i) => order.set(b.id, i));
  }
  const docIndex = new Map([...new Set(rows.map((r) => r.doc_id))].map((d, i) => [d, i]));
  rows.sort((a, b) => docIndex.get(a.doc_id)! - docIndex.get(b.doc_id)! || (order.get(a.block_id) ?? 0) - (order.get(b.block_id) ?? 0));
  return {
    items: rows.map((r) => ({
      id: r.block_id,
      name: r.name,
      itemCount: childBlocks(ctx.db, r.block_id).filter((b) => b.type === 'collectionItem').length,
      documentId: r.doc_id,
    })),
  };
}

/** `POST /collections`: a collection block at a position, with its schema and a default view. */
function createCollection(ctx: RequestContext, req: ApiRequest) {
  const raw = (req.body ?? {}) as Record<string, unknown>;
  const body = parseBody(createBody, raw);
  const position = parseBody(positionSchema, positionOf(raw));
  const schema = buildSchema(body.schema, undefined);
  const target = resolveTarget(ctx, position);
  const [id] = insertPrepared(ctx, target.parent, target.pos, [{ type: 'collection', data: { body: '', title: schema.name }, children: [] }]);
  const viewId = newId();
  insertCollection(ctx.db, { block_id: id!, name: schema.name, schema: JSON.stringify(schema), active_view_id: viewId });
  insertView(ctx.db, { id: viewId, collection_id: id!, pos: 0, view: JSON.stringify({ id: viewId, ...DEFAULT_VIEW }) });
  collectionChanged(ctx, id!);
  return { collectionBlockId: id!, name: schema.name, schema: schemaWriteForm(schema) };
}

/** `GET /collections/:collectionId/schema`: the schema as stored, or as the JSON Schema of an item. */
function readCollectionSchema(ctx: RequestContext, req: ApiRequest) {
  const format = queryString(req.query, 'format') ?? 'json-schema-items';
  if (format !== 'schema' && format !== 'json-schema-items') {
    throw validationFailed([{ message: "'format' must be schema or json-schema-items.", path: ['format'] }]);
  }
  const c = loadCollection(ctx, req.params.collectionId!);
  return format === 'schema' ? schemaReadForm(c.schema) : itemsJsonSchema(c.schema);
}

/** `PUT /collections/:collectionId/schema`: values of dropped properties, options or changed types do not survive the replace. */
function replaceCollectionSchema(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(updateSchemaBody, req.body);
  const c = loadCollection(ctx, req.params.collectionId!);
  const schema = buildSchema(body.schema, c.schema);
  saveSchema(ctx, c, schema);
  for (const item of childBlocks(ctx.db, c.block.id)) {
    if (item.type !== 'collectionItem') continue;
    const data = parseData(item.data);
    const kept = keepValidValues(schema, data.properties ?? {}, ctx.now, ctx.space.timezone);
    if (JSON.stringify(kept) !== JSON.stringify(data.properties ?? {})) writeItem(ctx, item, { ...data, properties: kept });
  }
  collectionChanged(ctx, c.block.id);
  return { collectionBlockId: c.block.id, schema: schemaWriteForm(schema) };
}

/** `GET /collections/:collectionId/items`: the items with their content to a depth, every block read charged. */
function readItems(ctx: RequestContext, req: ApiRequest) {
  const maxDepth = queryInt(req.query, 'maxDepth', -1, -1);
  const c = loadCollection(ctx, req.params.collectionId!);
  const index = childrenIndex(documentBlocks(ctx.db, c.block.doc_id));
  let count = 0;
  const items = (index.get(c.block.id) ?? [])
    .filter((r) => r.type === 'collectionItem')
    .map((row) => {
      const tree = buildTree(ctx, row, index, maxDepth, false);
      count += tree.count;
      return itemJson(row, tree.block as { content?: unknown[]; contentPreviewMd?: string });
    });
  ctx.chargeBlocks(count);
  return { items };
}

/** `POST /collections/:collectionId/items`: items added after the last one. */
function addItems(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(addItemsBody, req.body);
  const c = loadCollection(ctx, req.params.collectionId!);
  const values = checkedProperties(ctx, c, body.allowNewSelectOptions, 'items', body.items);
  const prepared = body.items.map((it, i) => {
    const data: BlockData = { body: it.title };
    if (Object.keys(values[i]!).length > 0) data.properties = values[i]!;
    return { type: 'collectionItem' as const, data, children: [] };
  });
  const ids = insertPrepared(ctx, c.block, lastPos(ctx.db, c.block.id) + 1, prepared);
  collectionChanged(ctx, c.block.id);
  const rows = new Map(childBlocks(ctx.db, c.block.id).map((r) => [r.id, r]));
  return { items: ids.map((id) => itemJson(rows.get(id)!)) };
}

/** `PUT /collections/:collectionId/items`: titles and properties; properties not sent keep their values. */
function updateItems(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(updateItemsBody, req.body);
  const c = loadCollection(ctx, req.params.collectionId!);
  const rows = body.itemsToUpdate.map((u) => itemOf(ctx, c, u.id));
  const current = rows.map((row) => parseData(row.data));
  const values = checkedProperties(ctx, c, body.allowNewSelectOptions, 'itemsToUpdate', body.itemsToUpdate, current);
  rows.forEach((row, i) => {
    const title = body.itemsToUpdate[i]!.title;
    writeItem(ctx, row, { ...current[i], ...(title !== undefined ? { body: title } : {}), properties: values[i] });
  });
  ctx.chargeBlocks(rows.length);
  collectionChanged(ctx, c.block.id);
  const fresh = new Map(childBlocks(ctx.db, c.block.id).map((r) => [r.id, r]));
  return { items: rows.map((r) => itemJson(fresh.get(r.id)!)) };
}

/** `DELETE /collections/:collectionId/items`: each item once, its content going with it. */
function deleteItems(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(deleteItemsBody, req.body);
  const c = loadCollection(ctx, req.params.collectionId!);
  deleteSubtrees(ctx, new Set(body.idsToDelete), (id) => itemOf(ctx, c, id));
  collectionChanged(ctx, c.block.id);
  return { items: body.idsToDelete.map((id) => ({ id })) };
}
