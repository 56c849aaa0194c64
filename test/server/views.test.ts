// Conformance: collection views and the active view (docs/api.md "Collection view", "States and
// transitions: Collection views", "Endpoints: Collections"): stored configuration only.
import { describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { useHarness } from './harness.js';
import { ids } from './spaceFixture.js';
import { collectionFixture } from './collectionsFixture.js';

const h = useHarness({ fixture: collectionFixture });

const views = async (id = 'C-1') => (await h.api('GET', `/collections/${id}/views`)).body;
const createView = (view: unknown, id = 'C-1') => h.api('POST', `/collections/${id}/views`, { body: { view } });
const updateView = (viewId: string, view: unknown) => h.api('PUT', `/collections/C-1/views/${viewId}`, { body: { view } });
const deleteView = (viewId: string, id = 'C-1') => h.api('DELETE', `/collections/${id}/views/${viewId}`);
const activate = (viewId: unknown) => h.api('PUT', '/collections/C-1/active-view', { body: { viewId } });
const ref = (propertyId: string, propertyKey: string, propertyName: string) => ({ propertyId, propertyKey, propertyName });
const STATUS = ref('P-STATUS', 'status', 'Status');
const DUE = ref('P-DUE', 'dueDate', 'Due Date');
const OWNER = ref('owner', 'owner', 'Owner');
const TITLE = ref('title', 'title', 'Task');

describe('GET /collections/{id}/views', () => {
  it('answers collectionBlockId, activeViewId and every stored view with its references resolved, isActive on the effective one', async () => {
    const r = await h.api('GET', '/collections/C-1/views');
    expect(r.status).toBe(200);
    expect(r.body.collectionBlockId).toBe('C-1');
    expect(r.body.activeViewId).toBe('V-BOARD');
    expect(r.body.views.map((v: any) => [v.id, v.isActive])).toEqual([
      ['V-TABLE', false],
      ['V-BOARD', true],
      ['V-GALLERY', false],
    ]);
    expect(r.body.views[0]).toEqual({
      id: 'V-TABLE',
      name: 'All',
      type: 'table',
      filters: [],
      sortBy: [{ ...DUE, ascending: true }],
      groupBy: [],
      hiddenProperties: [],
      customPropertyOrder: [],
      columnWidth: { title: '240' },
      calculations: {},
      isCalculationsRowVisible: false,
      isActive: false,
    });
    expect(r.body.views[1].kanban).toEqual({ columnOrder: ['Todo', 'Doing', 'Done'], hiddenGroupValues: [], showsColumnColors: true, visibleFields: [OWNER] });
    expect(r.body.views[1].gallery).toBeUndefined();
    expect(r.body.views[2].gallery).toEqual({ cardSize: 'large', previewType: 'fill', visibleFields: [] });
    expect(r.body.views[2].kanban).toBeUndefined();
    expect(r.body.views[2].filters).toEqual([{ ...STATUS, filterType: 'select_isNoneOf', filterValue: ['Done'] }]);
  });

  it('views never carry items', async () => {
    for (const v of (await views()).views) expect(Object.keys(v)).not.toContain('items');
  });

  it('activeViewId is absent only when there are no views', async () => {
    const r = await views('C-2');
    expect(r).toEqual({ collectionBlockId: 'C-2', views: [] });
  });

  it('when the stored activeViewId names no view, the first stored view is the active one', async () => {
    const f = structuredClone(collectionFixture) as SpaceFixture;
    const col = f.documents!.find((d) => d.id === 'D-COLL')!.content!.find((b) => b.id === 'C-1')!.collection!;
    col.activeViewId = 'V-GONE';
    await h.reset(f);
    const r = await views();
    expect(r.activeViewId).toBe('V-TABLE');
    expect(r.views[0].isActive).toBe(true);
  });

  it('a new collection starts with one table view, active', async () => {
    const c = await h.api('POST', '/collections', {
      body: { schema: { name: 'N', contentPropDetails: { name: 'Name' }, properties: [] }, position: { position: 'end', pageId: ids.unsorted } },
    });
    const r = await views(c.body.collectionBlockId);
    expect(r.views).toHaveLength(1);
    expect(r.views[0]).toMatchObject({ type: 'table', isActive: true });
    expect(r.activeViewId).toBe(r.views[0].id);
  });

  it('an unknown collection is a 404', async () => {
    expect((await h.api('GET', '/collections/NOPE/views')).status).toBe(404);
  });
});

describe('POST /collections/{id}/views', () => {
  it('creates a view from input that names columns by property key, and stores it', async () => {
    const r = await createView({
      name: 'Planning',
      type: 'table',
      filters: [{ property: 'status', filterType: 'select_isNoneOf', filterValue: ['Done'] }],
      sortBy: [{ property: 'dueDate', ascending: false }],
      groupBy: [{ property: 'owner' }],
      fields: { order: ['title', 'owner', 'status'], hidden: ['dueDate'], widths: { title: '300', owner: 120 } },
      calculations: { dueDate: 'count_unique', owner: 'number_sum' },
      isCalculationsRowVisible: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(String),
      name: 'Planning',
      type: 'table',
      filters: [{ ...STATUS, filterType: 'select_isNoneOf', filterValue: ['Done'] }],
      sortBy: [{ ...DUE, ascending: false }],
      groupBy: [{ ...OWNER, ascending: true }],
      hiddenProperties: [DUE],
      customPropertyOrder: [TITLE, OWNER, STATUS],
      columnWidth: { title: '300', owner: '120' },
      calculations: { 'P-DUE': { ...DUE, type: 'count_unique' }, owner: { ...OWNER, type: 'number_sum' } },
      isCalculationsRowVisible: true,
      isActive: false,
    });
    const stored = (await views()).views.find((v: any) => v.id === r.body.id);
    expect(stored).toEqual(r.body);
  });

  it('type defaults to table; the name is required; the type must be table, gallery or kanban', async () => {
    expect((await createView({ name: 'Plain' })).body).toMatchObject({ type: 'table', filters: [], sortBy: [], groupBy: [] });
    expect((await createView({ type: 'table' })).status).toBe(400);
    expect((await createView({ name: 'x', type: 'calendar' })).status).toBe(400);
  });

  it('a kanban view needs exactly one groupBy rule', async () => {
    for (const groupBy of [undefined, [], [{ property: 'status' }, { property: 'owner' }]]) {
      const r = await createView({ name: 'k', type: 'kanban', ...(groupBy ? { groupBy } : {}) });
      expect(r.status).toBe(400);
      expect(r.body.details[0].message).toMatch(/exactly one groupBy/);
    }
    const ok = await createView({
      name: 'k',
      type: 'kanban',
      groupBy: [{ property: 'status' }],
      kanban: { showsColumnColors: false, visibleFields: ['owner'] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.kanban).toEqual({ columnOrder: [], hiddenGroupValues: [], showsColumnColors: false, visibleFields: [OWNER] });
  });

  it('gallery settings only on a gallery view, kanban settings only on a kanban view', async () => {
    expect((await createView({ name: 'g', type: 'table', gallery: { cardSize: 'large' } })).status).toBe(400);
    expect((await createView({ name: 'g', type: 'kanban', groupBy: [{ property: 'status' }], gallery: { cardSize: 'large' } })).status).toBe(400);
    expect((await createView({ name: 'k', type: 'gallery', kanban: { showsColumnColors: true } })).status).toBe(400);
    const ok = await createView({ name: 'g', type: 'gallery', gallery: { cardSize: 'large', previewType: 'fill', visibleFields: ['status'] } });
    expect(ok.body.gallery).toEqual({ cardSize: 'large', previewType: 'fill', visibleFields: [STATUS] });
    expect((await views()).views).toHaveLength(4);
  });

  it('refuses a reference to a property the schema does not have', async () => {
    const r = await createView({ name: 'x', sortBy: [{ property: 'priority', ascending: true }] });
    expect(r.status).toBe(400);
    expect(r.body.details[0]).toMatchObject({ path: ['view', 'sortBy', 0, 'property'] });
  });

  it('refuses a filter without filterType or with a filterValue that is not an array', async () => {
    expect((await createView({ name: 'x', filters: [{ property: 'status', filterValue: ['Done'] }] })).status).toBe(400);
    expect((await createView({ name: 'x', filters: [{ property: 'status', filterType: 'select_isNoneOf', filterValue: 'Done' }] })).status).toBe(400);
  });
});

describe('PUT /collections/{id}/views/{viewId}', () => {
  it('omitted settings are kept', async () => {
    const r = await updateView('V-GALLERY', { name: 'Open cards' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: 'V-GALLERY',
      name: 'Open cards',
      type: 'gallery',
      filters: [{ ...STATUS, filterValue: ['Done'] }],
      gallery: { cardSize: 'large', previewType: 'fill' },
    });
    expect((await views()).views[2].name).toBe('Open cards');
  });

  it('empty arrays and objects clear list-like settings', async () => {
    await updateView('V-TABLE', { filters: [{ property: 'owner', filterType: 'text_contains', filterValue: ['A'] }], calculations: { owner: 'count_unique' } });
    const r = await updateView('V-TABLE', { filters: [], sortBy: [], fields: { widths: {} }, calculations: {} });
    expect(r.body).toMatchObject({ filters: [], sortBy: [], columnWidth: {}, calculations: {} });
  });

  it('settings sent replace the stored ones; gallery settings merge', async () => {
    const r = await updateView('V-GALLERY', { gallery: { cardSize: 'small' }, fields: { hidden: ['owner'] } });
    expect(r.body.gallery).toEqual({ cardSize: 'small', previewType: 'fill', visibleFields: [] });
    expect(r.body.hiddenProperties).toEqual([OWNER]);
  });

  it('keeps the validations: kanban needs one groupBy, gallery and kanban settings only on their type', async () => {
    expect((await updateView('V-TABLE', { type: 'kanban' })).status).toBe(400);
    expect((await updateView('V-BOARD', { groupBy: [] })).status).toBe(400);
    expect((await updateView('V-BOARD', { gallery: { cardSize: 'large' } })).status).toBe(400);
    expect((await updateView('V-TABLE', { kanban: { showsColumnColors: true } })).status).toBe(400);
    const r = await updateView('V-TABLE', { type: 'kanban', groupBy: [{ property: 'status' }] });
    expect(r.body).toMatchObject({ type: 'kanban', kanban: { columnOrder: [], showsColumnColors: true } });
  });

  it('a view changing type drops the settings of its old type', async () => {
    const r = await updateView('V-BOARD', { type: 'table' });
    expect(r.body.type).toBe('table');
    expect(r.body.kanban).toBeUndefined();
    expect((await views()).views[1].kanban).toBeUndefined();
  });

  it('an unknown view is a 404', async () => {
    expect((await updateView('V-NOPE', { name: 'x' })).status).toBe(404);
  });
});

describe('DELETE /collections/{id}/views/{viewId}', () => {
  it('deletes a view that is not active; the active view stays', async () => {
    const r = await deleteView('V-TABLE');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deletedViewId: 'V-TABLE', activeViewId: 'V-BOARD' });
    expect((await views()).views.map((v: any) => v.id)).toEqual(['V-BOARD', 'V-GALLERY']);
  });

  it('deleting the active view makes the first remaining view active', async () => {
    const r = await deleteView('V-BOARD');
    expect(r.body).toEqual({ deletedViewId: 'V-BOARD', activeViewId: 'V-TABLE' });
    const after = await views();
    expect(after.activeViewId).toBe('V-TABLE');
    expect(after.views[0].isActive).toBe(true);
  });

  it('the last view cannot be deleted', async () => {
    await deleteView('V-TABLE');
    await deleteView('V-BOARD');
    const r = await deleteView('V-GALLERY');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/last view/);
    expect((await views()).views.map((v: any) => v.id)).toEqual(['V-GALLERY']);
  });

  it('an unknown view is a 404', async () => {
    expect((await deleteView('V-NOPE')).status).toBe(404);
  });
});

describe('PUT /collections/{id}/active-view', () => {
  it('stores activeViewId and answers the view, now active; the items do not change', async () => {
    const before = (await h.api('GET', '/collections/C-1/items')).body;
    const r = await activate('V-GALLERY');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'V-GALLERY', isActive: true });
    const after = await views();
    expect(after.activeViewId).toBe('V-GALLERY');
    expect(after.views.filter((v: any) => v.isActive).map((v: any) => v.id)).toEqual(['V-GALLERY']);
    expect((await h.api('GET', '/collections/C-1/items')).body).toEqual(before);
  });

  it('viewId must be a string of length at least 1 naming an existing view', async () => {
    expect((await activate('')).status).toBe(400);
    expect((await activate(undefined)).status).toBe(400);
    expect((await activate('V-NOPE')).status).toBe(404);
  });
});
