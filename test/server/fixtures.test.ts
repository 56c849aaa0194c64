// The fixture format: the demo space, snapshots that load back to the same space, relative
// dates, the large-space generator, and clear errors for broken fixtures.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flatten, startHarness, type Harness } from './harness.js';
import { generateSpace, startServer, type SpaceFixture } from '../../src/server/index.js';

const demo = JSON.parse(readFileSync('fixtures/spaces/demo.json', 'utf8')) as SpaceFixture;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixture: demo });
});
afterAll(async () => {
  await h.close();
});

async function allBlocks(): Promise<any[]> {
  const docs = (await h.api('GET', '/documents')).body.items as any[];
  const out: any[] = [];
  for (const d of docs) out.push(...flatten((await h.api('GET', '/blocks', { query: { id: d.id } })).body));
  return out;
}

describe('fixtures/spaces/demo.json', () => {
  it('is a realistic space: ~30 documents, folders two levels deep, templates, trash, daily notes around today', async () => {
    const docs = (await h.api('GET', '/documents')).body.items;
    expect(docs.length).toBeGreaterThanOrEqual(28);
    const folders = (await h.api('GET', '/folders')).body.items;
    expect(folders.some((f: any) => f.folders.some((s: any) => s.documentCount > 0))).toBe(true);
    expect((await h.api('GET', '/documents', { query: { location: 'templates' } })).body.items.length).toBeGreaterThan(0);
    expect((await h.api('GET', '/documents', { query: { location: 'trash' } })).body.items.length).toBeGreaterThan(0);
    const daily = (await h.api('GET', '/documents', { query: { location: 'daily_notes' } })).body.items.map((d: any) => d.dailyNoteDate);
    expect(daily).toContain('2026-09-05');
    expect(daily).toContain('2026-09-01');
    expect((await h.api('GET', '/blocks', { query: { date: 'today' } })).status).toBe(200);
  });

  it('holds every block type, cards, nested pages, tasks in every state, a collection and a whiteboard', async () => {
    const blocks = await allBlocks();
    const types = new Set(blocks.map((b) => b.type));
    for (const t of ['text', 'page', 'collectionItem', 'image', 'video', 'file', 'drawing', 'whiteboard', 'table', 'collection', 'code', 'richUrl', 'line'])
      expect(types).toContain(t);
    expect(blocks.some((b) => b.textStyle === 'card')).toBe(true);
    expect(blocks.some((b) => b.type === 'page' && b.content?.some((c: any) => c.type === 'page'))).toBe(true);
    for (const s of ['todo', 'done', 'canceled']) expect(blocks.some((b) => b.taskInfo?.state === s)).toBe(true);
    for (const style of ['h1', 'h2', 'h3', 'h4', 'caption']) expect(blocks.some((b) => b.textStyle === style)).toBe(true);
    for (const l of ['bullet', 'numbered', 'toggle', 'task']) expect(blocks.some((b) => b.listStyle === l)).toBe(true);
    expect(blocks.some((b) => b.decorations?.includes('callout'))).toBe(true);
    expect(blocks.some((b) => b.markdown === '')).toBe(true);
  });

  it('its snapshot loads back to the same space, collections, whiteboards, inbox, comments and reminders included', async () => {
    const snap = (await h.admin('GET', '/snapshot')).body as SpaceFixture;
    expect(snap.inbox?.length).toBe(3);
    expect(snap.reminders?.length).toBe(2);
    const docs = snap.documents ?? [];
    const collection = docs.flatMap((d) => d.content ?? []).find((b) => b.type === 'collection');
    expect(collection?.collection?.views).toHaveLength(3);
    expect(collection?.content).toHaveLength(3);
    const wb = docs.flatMap((d) => d.content ?? []).find((b) => b.type === 'whiteboard');
    expect(wb?.whiteboard?.elements).toHaveLength(5);
    expect(JSON.stringify(snap)).toContain('on-call');
    await h.reset(snap);
    expect((await h.admin('GET', '/snapshot')).body).toEqual(snap);
    await h.reset();
  });
});

describe('loading fixtures', () => {
  it('relative days and times follow the day of loading', async () => {
    const f: SpaceFixture = {
      version: 1,
      space: { id: 'S', name: 'S', timezone: 'UTC' },
      documents: [
        {
          id: 'DN',
          title: '',
          dailyNoteDate: 'today-2',
          createdAt: 'now-2d',
          content: [{ id: 'T', markdown: '- [ ] x', taskInfo: { state: 'todo', scheduleDate: 'today+1' } }],
        },
        { id: 'TR', title: 'gone', location: 'trash', trashedAt: 'now-1h' },
      ],
    };
    await h.reset(f);
    const daily = (await h.api('GET', '/documents', { query: { location: 'daily_notes', fetchMetadata: true } })).body.items[0];
    expect(daily).toMatchObject({ id: 'DN', title: '2026.09.03', dailyNoteDate: '2026-09-03', createdAt: '2026-09-03T10:00:00.000Z' });
    expect((await h.api('GET', '/blocks', { query: { id: 'T' } })).body.taskInfo).toEqual({ state: 'todo', scheduleDate: '2026-09-06' });
    await h.reset();
  });

  it.each([
    [{ version: 2 }, /version/],
    [{ version: 1, space: { id: 'S', name: 'S', timezone: 'Mars/Olympus' } }, /time zone/],
    [{ version: 1, space: { id: 'S', name: 'S' }, documents: [{ title: 'x', folderId: 'NOPE' }] }, /folder NOPE/],
    [{ version: 1, space: { id: 'S', name: 'S' }, documents: [{ title: 'x', content: [{ id: 'B1', markdown: 'one\n\ntwo' }] }] }, /B1.*2 blocks/],
    [{ version: 1, space: { id: 'S', name: 'S' }, documents: [{ title: 'x', createdAt: 'yesterday-ish' }] }, /createdAt/],
  ])('a broken fixture is refused with a message naming the problem (%#)', async (f, message) => {
    const r = await h.admin('POST', '/reset', { fixture: f });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('startServer refuses a seed it cannot load', async () => {
    await expect(startServer({ seed: '/nonexistent/space.json' })).rejects.toThrow(/Cannot read the seed fixture/);
    await expect(startServer({ seed: { version: 1, space: { id: 'S', name: 'S' }, documents: [{ title: 'x', folderId: 'NOPE' }] } })).rejects.toThrow(
      /folder NOPE/,
    );
  });
});

describe('generateSpace', () => {
  it('makes N documents × M blocks over folders, the same for the same seed', () => {
    const a = generateSpace({ documents: 12, blocksPerDocument: 40, seed: 7 });
    expect(a.documents).toHaveLength(12);
    expect(a.documents!.every((d) => d.content!.length === 40)).toBe(true);
    expect(a.folders).toHaveLength(5);
    expect(generateSpace({ documents: 12, blocksPerDocument: 40, seed: 7 })).toEqual(a);
    expect(generateSpace({ documents: 12, blocksPerDocument: 40, seed: 8 })).not.toEqual(a);
  });

  it('loads into a server', async () => {
    await h.reset(generateSpace({ documents: 10, blocksPerDocument: 25, seed: 3 }));
    const docs = (await h.api('GET', '/documents')).body.items;
    expect(docs).toHaveLength(10);
    const first = (await h.api('GET', '/blocks', { query: { id: docs[0].id } })).body;
    expect(first.content).toHaveLength(25);
    expect(new Set(first.content.map((b: any) => b.type))).toEqual(new Set(['text', 'code']));
    await h.reset();
  });

  it('with images: one image block per asset, given to the documents in turn, each asset its own bytes', async () => {
    const s = generateSpace({ documents: 3, blocksPerDocument: 4, folders: 0, seed: 5, images: 4, imageBytes: 300 });
    expect(s.assets).toHaveLength(4);
    const bytes = s.assets!.map((a) => Buffer.from(a.base64!, 'base64'));
    expect(bytes.every((b) => b.length === 300)).toBe(true);
    expect(new Set(bytes.map((b) => b.toString('hex'))).size).toBe(4);
    expect(s.documents!.map((d) => d.content!.filter((b) => b.type === 'image').length)).toEqual([2, 1, 1]);
    await h.reset(s);
    const doc = (await h.api('GET', '/blocks', { query: { id: s.documents![1]!.id! } })).body;
    const image = doc.content.find((b: any) => b.type === 'image');
    const served = await fetch(image.url);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes[1]);
    await h.reset();
  });
});
