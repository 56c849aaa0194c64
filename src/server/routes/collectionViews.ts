// Collection views: list, create, update (omitted settings kept, empty lists clear), delete (never
// the last; deleting the active one activates the first remaining) and the active view. The
// effective active view is the stored activeViewId when it names a view, else the first view.
import { z } from 'zod';
import type { ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { badRequest, notFound } from '../http/apiError.js';
import { parseBody } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { deleteView, insertView, setActiveView, updateView, viewsOf, type ViewRow } from '../store/collections.js';
import { loadCollection, type LoadedCollection } from '../model/collection.js';
import { applyViewInput, DEFAULT_VIEW, viewInput, viewJson, type StoredView } from '../model/collectionViews.js';

const viewBody = z.object({ view: viewInput });
const activeBody = z.object({ viewId: z.string().min(1, "'viewId' must name a view.") });

function activeId(c: LoadedCollection, views: ViewRow[]): string | undefined {
  const stored = c.row.active_view_id;
  if (stored !== null && views.some((v) => v.id === stored)) return stored;
  return views[0]?.id;
}

function readView(c: LoadedCollection, row: ViewRow, active: string | undefined) {
  return viewJson(c.schema, { ...(JSON.parse(row.view) as Record<string, unknown>), id: row.id }, row.id === active);
}

function findView(ctx: RequestContext, c: LoadedCollection, viewId: string): { views: ViewRow[]; row: ViewRow } {
  const views = viewsOf(ctx.db, c.block.id);
  const row = views.find((v) => v.id === viewId);
  if (!row) throw notFound(`View ${viewId} of collection ${c.block.id}`);
  return { views, row };
}

/** The stored form of a read view (refs refreshed, no isActive). */
function stored(view: StoredView & { isActive?: boolean }): StoredView {
  const { isActive: _a, ...rest } = view;
  return rest;
}

export function registerCollectionViews(api: ApiRouter): void {
  api.get('/collections/:collectionId/views', (ctx, req) => {
    const c = loadCollection(ctx, req.params.collectionId!);
    const views = viewsOf(ctx.db, c.block.id);
    const active = activeId(c, views);
    return { collectionBlockId: c.block.id, ...(active !== undefined ? { activeViewId: active } : {}), views: views.map((v) => readView(c, v, active)) };
  });

  api.post('/collections/:collectionId/views', (ctx, req) => {
    const body = parseBody(viewBody, req.body);
    const c = loadCollection(ctx, req.params.collectionId!);
    const view = applyViewInput(c.schema, body.view, { ...structuredClone(DEFAULT_VIEW), id: newId() }, true);
    const views = viewsOf(ctx.db, c.block.id);
    const row: ViewRow = { id: view.id, collection_id: c.block.id, pos: (views[views.length - 1]?.pos ?? -1) + 1, view: JSON.stringify(view) };
    insertView(ctx.db, row);
    return readView(c, row, activeId(c, [...views, row]));
  });

  api.put('/collections/:collectionId/views/:viewId', (ctx, req) => {
    const body = parseBody(viewBody, req.body);
    const c = loadCollection(ctx, req.params.collectionId!);
    const { views, row } = findView(ctx, c, req.params.viewId!);
    const current = stored(readView(c, row, undefined));
    const view = applyViewInput(c.schema, body.view, current, false);
    updateView(ctx.db, row.id, JSON.stringify(view));
    return readView(c, { ...row, view: JSON.stringify(view) }, activeId(c, views));
  });

  api.delete('/collections/:collectionId/views/:viewId', (ctx, req) => {
    const c = loadCollection(ctx, req.params.collectionId!);
    const { views, row } = findView(ctx, c, req.params.viewId!);
    if (views.length === 1) {
      throw badRequest(`View ${row.id} is the last view of collection ${c.block.id}: the last view cannot be deleted. Create another view first.`);
    }
    const wasActive = activeId(c, views) === row.id;
    deleteView(ctx.db, row.id);
    const remaining = views.filter((v) => v.id !== row.id);
    if (wasActive) setActiveView(ctx.db, c.block.id, remaining[0]!.id);
    const fresh = loadCollection(ctx, c.block.id);
    return { deletedViewId: row.id, activeViewId: activeId(fresh, remaining) };
  });

  api.put('/collections/:collectionId/active-view', (ctx, req) => {
    const body = parseBody(activeBody, req.body);
    const c = loadCollection(ctx, req.params.collectionId!);
    const { row } = findView(ctx, c, body.viewId);
    setActiveView(ctx.db, c.block.id, row.id);
    return readView(c, row, row.id);
  });
}
