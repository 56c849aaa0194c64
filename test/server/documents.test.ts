// Conformance: the document endpoints and the document-location state table (docs/api.md
// "Documents", "States and transitions: Document location"; docs/api.md).
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const list = async (query: Record<string, any> = {}) => {
  const r = await h.api('GET', '/documents', { query });
  expect(r.status).toBe(200);
  return r.body.items as any[];
};
const idsOf = (items: any[]) => items.map((d) => d.id).sort();

describe('GET /documents', () => {
  it('with no filter returns every document, daily notes and trash included, as {id, title}', async () => {
    const items = await list();
    expect(idsOf(items)).toEqual(
      Object.values(ids)
        .filter((id) => id.startsWith('D-'))
        .sort(),
    );
    for (const d of items) expect(Object.keys(d).sort()).toEqual(['id', 'title']);
  });

  it.each([
    ['unsorted', [ids.unsorted, ids.edge]],
    ['templates', [ids.template]],
    ['trash', [ids.trashed]],
    ['daily_notes', [ids.yesterday, ids.today]],
  ])('location=%s lists that location', async (location, expected) => {
    expect(idsOf(await list({ location }))).toEqual([...expected].sort());
  });

  it('dailyNoteDate appears only with location=daily_notes', async () => {
    const daily = await list({ location: 'daily_notes' });
    expect(daily.find((d) => d.id === ids.today)).toEqual({ id: ids.today, title: '2026.09.05', dailyNoteDate: '2026-09-05' });
    expect((await list()).find((d) => d.id === ids.today)).toEqual({ id: ids.today, title: '2026.09.05' });
  });

  it('folderId lists the folder recursively, subfolders included', async () => {
    expect(idsOf(await list({ folderId: ids.projects }))).toEqual([ids.oldPlan, ids.ancient, ids.roadmap].sort());
    expect(idsOf(await list({ folderId: ids.old }))).toEqual([ids.ancient]);
  });

  it('folderId of an unknown folder is a 404', async () => {
    expect((await h.api('GET', '/documents', { query: { folderId: 'NOPE' } })).status).toBe(404);
  });

  it('documentIds keeps only those documents', async () => {
    expect(idsOf(await list({ documentIds: [ids.roadmap, ids.diary] }))).toEqual([ids.roadmap, ids.diary].sort());
  });

  it('fetchMetadata=true adds lastModifiedAt, createdAt and clickableLink', async () => {
    const d = (await list({ fetchMetadata: true, documentIds: ids.unsorted }))[0];
    expect(d).toEqual({
      id: ids.unsorted,
      title: 'Unsorted note',
      lastModifiedAt: '2026-09-03T08:00:00.000Z',
      createdAt: '2026-09-01T08:00:00.000Z',
      clickableLink: expect.stringMatching(/:\/\/open\?spaceId=SPACE-1&documentId=D-UNS$/),
    });
  });

  it('createdDateGte is on or after that day in the space time zone', async () => {
    // D-EDGE was created 2026-08-31T23:30Z, which is 2026-09-01 in Berlin.
    const items = idsOf(await list({ createdDateGte: '2026-09-01' }));
    expect(items).toContain(ids.edge);
    expect(items).toContain(ids.unsorted);
    expect(items).not.toContain(ids.roadmap);
  });

  it('createdDateLte is on or before that day', async () => {
    const items = idsOf(await list({ createdDateLte: '2026-08-31' }));
    expect(items).not.toContain(ids.edge);
    expect(items).toContain(ids.roadmap);
    expect(items).toContain(ids.template);
  });

  it('lastModifiedDateGte and lastModifiedDateLte bound the last-modified day', async () => {
    expect(idsOf(await list({ lastModifiedDateGte: '2026-09-05' }))).toEqual([ids.roadmap, ids.today].sort());
    expect(idsOf(await list({ lastModifiedDateGte: '2026-09-03', lastModifiedDateLte: '2026-09-03' }))).toEqual([ids.unsorted]);
  });

  it('dailyNoteDateGte and dailyNoteDateLte keep daily notes of those days only', async () => {
    expect(idsOf(await list({ dailyNoteDateGte: '2026-09-05' }))).toEqual([ids.today]);
    expect(idsOf(await list({ dailyNoteDateLte: '2026-09-04' }))).toEqual([ids.yesterday]);
  });

  it('date filters accept today, yesterday and tomorrow', async () => {
    expect(idsOf(await list({ dailyNoteDateGte: 'today' }))).toEqual([ids.today]);
    expect(idsOf(await list({ dailyNoteDateLte: 'yesterday', dailyNoteDateGte: 'yesterday' }))).toEqual([ids.yesterday]);
    expect(await list({ createdDateGte: 'tomorrow' })).toEqual([]);
  });

  it('refuses a date filter that is not a date', async () => {
    const r = await h.api('GET', '/documents', { query: { createdDateGte: '2026-13-01' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses location combined with folderId', async () => {
    const r = await h.api('GET', '/documents', { query: { location: 'unsorted', folderId: ids.projects } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('refuses location combined with documentIds', async () => {
    expect((await h.api('GET', '/documents', { query: { location: 'unsorted', documentIds: ids.unsorted } })).status).toBe(400);
  });

  it('refuses an unknown location', async () => {
    expect((await h.api('GET', '/documents', { query: { location: 'inbox' } })).status).toBe(400);
  });

  it('titles can be empty strings', async () => {
    const c = await h.api('POST', '/documents', { body: { documents: [{ title: '' }] } });
    expect((await list({ documentIds: c.body.items[0].id }))[0]).toEqual({ id: c.body.items[0].id, title: '' });
  });
});

describe('POST /documents', () => {
  it('creates in unsorted by default and answers {id, title, clickableLink}', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'New one' }] } });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([{ id: expect.any(String), title: 'New one', clickableLink: expect.stringContaining(`documentId=${r.body.items[0].id}`) }]);
    expect(idsOf(await list({ location: 'unsorted' }))).toContain(r.body.items[0].id);
  });

  it('the document id is its root block id', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'Root' }] } });
    const b = await h.api('GET', '/blocks', { query: { id: r.body.items[0].id } });
    expect(b.body).toEqual({ id: r.body.items[0].id, type: 'page', textStyle: 'page', markdown: 'Root', content: [] });
  });

  it('creates in templates with {destination: "templates"}', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'T' }], destination: { destination: 'templates' } } });
    expect(idsOf(await list({ location: 'templates' }))).toContain(r.body.items[0].id);
  });

  it('creates in a folder with {folderId}', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'A' }, { title: 'B' }], destination: { folderId: ids.personal } } });
    expect(r.body.items.map((d: any) => d.title)).toEqual(['A', 'B']);
    expect(idsOf(await list({ folderId: ids.personal }))).toEqual([ids.diary, ...r.body.items.map((d: any) => d.id)].sort());
  });

  it('refuses to create a document in trash', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'x' }], destination: { destination: 'trash' } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.stringContaining('trash'), code: 'VALIDATION_ERROR' });
  });

  it('answers 404 for an unknown folder', async () => {
    expect((await h.api('POST', '/documents', { body: { documents: [{ title: 'x' }], destination: { folderId: 'NOPE' } } })).status).toBe(404);
  });
});

describe('DELETE /documents (soft delete)', () => {
  it('moves documents to trash and answers bare ids', async () => {
    const r = await h.api('DELETE', '/documents', { body: { documentIds: [ids.roadmap, ids.unsorted] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [ids.roadmap, ids.unsorted] });
    expect(idsOf(await list({ location: 'trash' }))).toEqual([ids.trashed, ids.roadmap, ids.unsorted].sort());
    expect(idsOf(await list({ folderId: ids.projects }))).not.toContain(ids.roadmap);
  });

  it('a deleted document keeps its content', async () => {
    await h.api('DELETE', '/documents', { body: { documentIds: [ids.unsorted] } });
    const b = await h.api('GET', '/blocks', { query: { id: ids.unsorted } });
    expect(b.body.content.map((c: any) => c.markdown)).toEqual(['hello world']);
  });

  it('a daily note can be deleted', async () => {
    await h.api('DELETE', '/documents', { body: { documentIds: [ids.today] } });
    expect(idsOf(await list({ location: 'daily_notes' }))).toEqual([ids.yesterday]);
  });

  it('answers 404 for an unknown document and trashes nothing', async () => {
    const r = await h.api('DELETE', '/documents', { body: { documentIds: [ids.unsorted, 'NOPE'] } });
    expect(r.status).toBe(404);
    expect(idsOf(await list({ location: 'trash' }))).toEqual([ids.trashed]);
  });

  it('documents are purged from trash 30 days after deletion', async () => {
    await h.api('DELETE', '/documents', { body: { documentIds: [ids.unsorted] } });
    h.clock.advance(29 * 86_400_000);
    expect(idsOf(await list({ location: 'trash' }))).toEqual([ids.unsorted]);
    h.clock.advance(2 * 86_400_000);
    expect(await list({ location: 'trash' })).toEqual([]);
    expect((await h.api('GET', '/blocks', { query: { id: ids.unsorted } })).status).toBe(404);
    h.clock.advance(-31 * 86_400_000);
  });
});

describe('PUT /documents/move', () => {
  it('restores a document from trash and answers {id, destination}', async () => {
    const r = await h.api('PUT', '/documents/move', { body: { documentIds: [ids.trashed], destination: { destination: 'unsorted' } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: ids.trashed, destination: { destination: 'unsorted' } }] });
    expect(idsOf(await list({ location: 'unsorted' }))).toContain(ids.trashed);
    expect(await list({ location: 'trash' })).toEqual([]);
  });

  it('restores from trash into templates or a folder', async () => {
    await h.api('PUT', '/documents/move', { body: { documentIds: [ids.trashed], destination: { folderId: ids.old } } });
    expect(idsOf(await list({ folderId: ids.old }))).toContain(ids.trashed);
  });

  it('moves a document between locations', async () => {
    const r = await h.api('PUT', '/documents/move', { body: { documentIds: [ids.roadmap], destination: { destination: 'templates' } } });
    expect(r.body.items[0].destination).toEqual({ destination: 'templates' });
    expect(idsOf(await list({ location: 'templates' }))).toContain(ids.roadmap);
    const back = await h.api('PUT', '/documents/move', { body: { documentIds: [ids.roadmap], destination: { folderId: ids.personal } } });
    expect(back.body.items[0].destination).toEqual({ folderId: ids.personal });
  });

  it('refuses to move a document to trash', async () => {
    const r = await h.api('PUT', '/documents/move', { body: { documentIds: [ids.roadmap], destination: { destination: 'trash' } } });
    expect(r.status).toBe(400);
    expect(idsOf(await list({ folderId: ids.projects }))).toContain(ids.roadmap);
  });

  it('refuses to move a daily note', async () => {
    const r = await h.api('PUT', '/documents/move', { body: { documentIds: [ids.today], destination: { destination: 'unsorted' } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/daily note/i);
  });

  it('answers 404 for an unknown document', async () => {
    expect((await h.api('PUT', '/documents/move', { body: { documentIds: ['NOPE'], destination: { destination: 'unsorted' } } })).status).toBe(404);
  });
});

describe('lastModifiedAt', () => {
  it('moves when any block of the document changes', async () => {
    h.clock.advance(60_000);
    await h.api('PUT', '/blocks', { body: { blocks: [{ id: 'B-DEEP', markdown: 'changed deep down' }] } });
    const d = (await list({ fetchMetadata: true, documentIds: ids.roadmap }))[0];
    expect(d.lastModifiedAt).toBe(new Date(h.clock.now()).toISOString());
    h.clock.advance(-60_000);
  });
});
