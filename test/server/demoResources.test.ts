// The demo space exercises every resource beyond documents and blocks: tasks in every scope, a
// collection with items and views of each type, a comment thread, reminders, uploaded files and
// a whiteboard; each is read (and one written) through its own endpoints.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { flatten, startHarness, type Harness } from './harness.js';

const demo = JSON.parse(readFileSync('fixtures/spaces/demo.json', 'utf8')) as SpaceFixture;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture: demo });
});
afterAll(async () => {
  await h.close();
});

const get = async (path: string, query: Record<string, string | number | boolean> = {}) => {
  const r = await h.api('GET', path, { query });
  expect(r.status).toBe(200);
  return r.body;
};
async function allBlocks(): Promise<any[]> {
  const out: any[] = [];
  for (const d of (await get('/documents')).items) out.push(...flatten(await get('/blocks', { id: d.id, fetchMetadata: true })));
  return out;
}

describe('the demo space through the resource endpoints', () => {
  it('has tasks in every scope, in the inbox, daily notes and documents', async () => {
    for (const scope of ['active', 'upcoming', 'inbox', 'logbook', 'all']) expect((await get('/tasks', { scope })).items.length).toBeGreaterThan(0);
    const all = (await get('/tasks', { scope: 'all' })).items as any[];
    for (const type of ['inbox', 'dailyNote', 'document']) expect(all.some((t) => t.location.type === type)).toBe(true);
    for (const state of ['todo', 'done', 'canceled']) expect(all.some((t) => t.taskInfo.state === state)).toBe(true);
    const doc = all.find((t) => t.location.type === 'document');
    expect((await get('/tasks', { scope: 'document', documentId: doc.location.documentId })).items.map((t: any) => t.id)).toContain(doc.id);
  });

  it('has a collection with select, date and text properties, items with content, and a view of each type', async () => {
    const [col] = (await get('/collections')).items;
    expect(col.itemCount).toBeGreaterThan(0);
    const schema = await get(`/collections/${col.id}/schema`, { format: 'schema' });
    expect(schema.properties.map((p: any) => p.type).sort()).toEqual(['date', 'select', 'text']);
    // The title property's key is always `title`, as docs/server.md says and every server-made schema has.
    expect(schema.contentPropDetails.key).toBe('title');
    expect((await get(`/collections/${col.id}/schema`)).required).toEqual(['items']);
    const items = (await get(`/collections/${col.id}/items`)).items as any[];
    expect(items.some((i) => (i.content ?? []).length > 0)).toBe(true);
    const views = await get(`/collections/${col.id}/views`);
    expect(views.views.map((v: any) => v.type).sort()).toEqual(['gallery', 'kanban', 'table']);
    expect(views.views.find((v: any) => v.isActive).id).toBe(views.activeViewId);
    const block = await get('/blocks', { id: col.id });
    expect(block.markdown).toMatch(/^<collection>\n {2}<title>.+<\/title>\n {2}<properties>.+<\/properties>/);
  });

  it('has a comment thread shown in metadata and as <comment id> in the markdown', async () => {
    const commented = (await allBlocks()).filter((b) => b.metadata.comments.length > 0);
    expect(commented.length).toBeGreaterThan(0);
    expect(commented.some((b) => b.markdown.includes(`<comment id="${b.metadata.comments[0].id}">`))).toBe(true);
  });

  it('has reminders, one scheduled and one saved for later, on blocks that exist', async () => {
    const reminders = (await get('/reminders', { status: 'all' })).items as any[];
    expect(reminders.some((r) => r.remindAt !== undefined)).toBe(true);
    expect(reminders.some((r) => r.remindAt === undefined)).toBe(true);
    for (const r of reminders) expect((await h.api('GET', '/blocks', { query: { id: r.blockId } })).status).toBe(200);
  });

  it('has uploaded files served at their signed URLs, and takes a new upload', async () => {
    const media = (await allBlocks()).filter((b) => ['image', 'file'].includes(b.type) && b.url?.includes('/assets/'));
    expect(media.length).toBeGreaterThan(0);
    for (const b of media) expect((await fetch(b.url)).status).toBe(200);
    const page = media[0];
    const r = await fetch(`${h.server.baseUrl}/upload?position=after&siblingId=${page.id}&fileName=notes.txt`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(r.status).toBe(200);
    const { assetUrl } = (await r.json()) as { assetUrl: string };
    expect(await (await fetch(assetUrl)).text()).toBe('hello');
    await h.reset();
  });

  it('has a whiteboard whose elements carry extra properties, with its app state', async () => {
    const wb = (await allBlocks()).find((b) => b.type === 'whiteboard');
    const content = await get(`/whiteboards/${wb.id}/elements`);
    expect(content.elements.length).toBeGreaterThan(0);
    expect(content.elements.some((e: any) => Object.keys(e).some((k) => !['id', 'type', 'x', 'y', 'width', 'height', 'text', 'points'].includes(k)))).toBe(
      true,
    );
    expect(content.appState).toBeDefined();
  });
});
