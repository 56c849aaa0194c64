// Collections: list, create at a position, the schema (read in two formats, replace), and items
// (read with a depth, add, update, delete with their content). Views live in collectionViews.ts.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { notFound, validationFailed } from '../http/apiError.js';
import { parseBody } from '../http/body.js';
import { queryArray, queryInt, queryString } from '../http/query.js';
import { newId } from '../ids.js';
import { childBlocks, deleteBlockRows, documentBlocks, lastPos, subtreeIds, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { collectionsWithDocuments, insertCollection, insertView } from '../store/collections.js';
import { parseData, type BlockData } from '../model/blockData.js';
import { markdownOf } from '../model/blockInput.js';
import { insertPrepared } from '../model/blockWrites.js';
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

export function registerCollections(api: ApiRouter): void {
  api.get('/collections', (ctx, req) => {
    const wanted = queryArray(req.query, 'documentIds');
    const rows = collectionsWithDocuments(ctx.db).filter((r) => wanted === undefined || wanted.includes(r.doc_id));
    // Within a document, collections in reading order.
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
  });

  api.post(
    '/collections',
    (ctx, req) => {
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
    },
    { blockOperation: true },
  );

  api.get('/collections/:collectionId/schema', (ctx, req) => {
    const format = queryString(req.query, 'format') ?? 'json-schema-items';
    if (format !== 'schema' && format !== 'json-schema-items') {
      throw validationFailed([{ message: "'format' must be schema or json-schema-items.", path: ['format'] }]);
    }
    const c = loadCollection(ctx, req.params.collectionId!);
    return format === 'schema' ? schemaReadForm(c.schema) : itemsJsonSchema(c.schema);
  });

  api.put('/collections/:collectionId/schema', (ctx, req) => {
    const body = parseBody(updateSchemaBody, req.body);
    const c = loadCollection(ctx, req.params.collectionId!);
    const schema = buildSchema(body.schema, c.schema);
    saveSchema(ctx, c, schema);
    // Values of dropped properties, options or changed types do not survive the replace.
    for (const item of childBlocks(ctx.db, c.block.id)) {
      if (item.type !== 'collectionItem') continue;
      const data = parseData(item.data);
      const kept = keepValidValues(schema, data.properties ?? {}, ctx.now, ctx.space.timezone);
      if (JSON.stringify(kept) !== JSON.stringify(data.properties ?? {})) writeItem(ctx, item, { ...data, properties: kept });
    }
    collectionChanged(ctx, c.block.id);
    return { collectionBlockId: c.block.id, schema: schemaWriteForm(schema) };
  });

  api.get(
    '/collections/:collectionId/items',
    (ctx, req) => {
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
    },
    { blockOperation: true },
  );

  api.post(
    '/collections/:collectionId/items',
    (ctx, req) => {
      const body = parseBody(addItemsBody, req.body);
      const c = loadCollection(ctx, req.params.collectionId!);
      const issues: PropertyIssue[] = [];
      let added = false;
      const values = body.items.map((it, i) => {
        const r = checkItemProperties(
          c.schema,
          {},
          it.properties ?? {},
          {
            allowNewSelectOptions: body.allowNewSelectOptions === true,
            now: ctx.now,
            timezone: ctx.space.timezone,
            path: ['items', i, 'properties'],
          },
          issues,
        );
        added ||= r.addedOptions;
        return r.values;
      });
      throwIssues(issues);
      if (added) saveSchema(ctx, c, c.schema);
      const prepared = body.items.map((it, i) => {
        const data: BlockData = { body: it.title };
        if (Object.keys(values[i]!).length > 0) data.properties = values[i]!;
        return { type: 'collectionItem' as const, data, children: [] };
      });
      const ids = insertPrepared(ctx, c.block, lastPos(ctx.db, c.block.id) + 1, prepared);
      collectionChanged(ctx, c.block.id);
      const rows = new Map(childBlocks(ctx.db, c.block.id).map((r) => [r.id, r]));
      return { items: ids.map((id) => itemJson(rows.get(id)!)) };
    },
    { blockOperation: true },
  );

  api.put(
    '/collections/:collectionId/items',
    (ctx, req) => {
      const body = parseBody(updateItemsBody, req.body);
      const c = loadCollection(ctx, req.params.collectionId!);
      const rows = body.itemsToUpdate.map((u) => itemOf(ctx, c, u.id));
      const issues: PropertyIssue[] = [];
      let added = false;
      const updates = body.itemsToUpdate.map((u, i) => {
        const data = parseData(rows[i]!.data);
        const r = checkItemProperties(
          c.schema,
          data.properties ?? {},
          u.properties ?? {},
          {
            allowNewSelectOptions: body.allowNewSelectOptions === true,
            now: ctx.now,
            timezone: ctx.space.timezone,
            path: ['itemsToUpdate', i, 'properties'],
          },
          issues,
        );
        added ||= r.addedOptions;
        return { ...data, ...(u.title !== undefined ? { body: u.title } : {}), properties: r.values };
      });
      throwIssues(issues);
      if (added) saveSchema(ctx, c, c.schema);
      rows.forEach((row, i) => writeItem(ctx, row, updates[i]!));
      ctx.chargeBlocks(rows.length);
      collectionChanged(ctx, c.block.id);
      const fresh = new Map(childBlocks(ctx.db, c.block.id).map((r) => [r.id, r]));
      return { items: rows.map((r) => itemJson(fresh.get(r.id)!)) };
    },
    { blockOperation: true },
  );

  api.delete(
    '/collections/:collectionId/items',
    (ctx, req) => {
      const body = parseBody(deleteItemsBody, req.body);
      const c = loadCollection(ctx, req.params.collectionId!);
      const rows = [...new Set(body.idsToDelete)].map((id) => itemOf(ctx, c, id));
      let count = 0;
      for (const row of rows) {
        // The item's content goes with it.
        const ids = subtreeIds(ctx.db, row.id);
        deleteBlockRows(ctx.db, ids);
        count += ids.length;
      }
      ctx.chargeBlocks(count);
      collectionChanged(ctx, c.block.id);
      return { items: body.idsToDelete.map((id) => ({ id })) };
    },
    { blockOperation: true },
  );
}
