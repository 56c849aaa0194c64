// Conformance: GET /documents/search (docs/api.md "Documents", "Other: Search hit").
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const search = async (query: Record<string, any>) => {
  const r = await h.api('GET', '/documents/search', { query });
  expect(r.status).toBe(200);
  return r.body.items as any[];
};

describe('GET /documents/search', () => {
  it('finds documents containing an include term, with the matching block ids and a highlighted snippet', async () => {
    const items = await search({ include: 'deepest' });
    expect(items).toEqual([{ documentId: ids.roadmap, markdown: 'the <highlight color="yellow">deepest</highlight> sync text', blockIds: ['B-DEEP'] }]);
  });

  it('include terms are case-insensitive', async () => {
    expect((await search({ include: 'HELLO' })).map((i) => i.documentId)).toEqual([ids.unsorted]);
  });

  it('several include terms must all match (repeated keys)', async () => {
    expect((await search({ include: ['sync', 'engine'] })).map((i) => i.documentId)).toEqual([ids.roadmap]);
    expect(await search({ include: ['sync', 'nothing-like-this'] })).toEqual([]);
  });

  it('regexps are RE2 patterns matched against block markdown', async () => {
    const items = await search({ regexps: 'step (one|two)' });
    expect(items).toHaveLength(1);
    expect(items[0].blockIds).toEqual(['B-NUM', 'B-NUM2']);
  });

  it('an invalid RE2 pattern is an INVALID_REGEX_ERROR with details', async () => {
    const r = await h.api('GET', '/documents/search', { query: { regexps: '(?<=x)y' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_REGEX_ERROR', error: expect.any(String), details: { pattern: '(?<=x)y' } });
  });

  it('ranks by relevance: a title match ranks above a body match', async () => {
    const r = await h.api('POST', '/documents', { body: { documents: [{ title: 'Sync handbook' }] } });
    const items = await search({ include: 'sync' });
    expect(items[0].documentId).toBe(r.body.items[0].id);
    expect(items.map((i) => i.documentId)).toEqual(expect.arrayContaining([ids.roadmap, ids.oldPlan]));
  });

  it('ranks a document with more matches above one with fewer', async () => {
    const items = await search({ include: 'sync' });
    const order = items.map((i) => i.documentId);
    expect(order.indexOf(ids.roadmap)).toBeLessThan(order.indexOf(ids.oldPlan));
  });

  it('returns at most the top 50, as the live service does (the contract says 20)', async () => {
    await h.api('POST', '/documents', { body: { documents: Array.from({ length: 55 }, (_, i) => ({ title: `needle ${i}` })) } });
    expect(await search({ include: 'needle' })).toHaveLength(50);
  });

  it('an include term holding "_" finds nothing, as live; a regexps pattern finds the same token', async () => {
    const [doc] = (await h.api('POST', '/documents', { body: { documents: [{ title: 'tokens' }] } })).body.items;
    await h.api('POST', '/blocks', { body: { blocks: [{ markdown: 'marker smoke_token_42 here' }], position: { position: 'end', pageId: doc.id } } });
    expect(await search({ include: 'smoke_token_42' })).toEqual([]);
    expect((await search({ include: 'token' })).map((i) => i.documentId)).toContain(doc.id);
    expect((await search({ regexps: 'smoke_token_42' })).map((i) => i.documentId)).toEqual([doc.id]);
  });

  it('fetchBlocks=true adds the matching blocks', async () => {
    const [hit] = await search({ include: 'deepest', fetchBlocks: true });
    expect(hit.blocks).toEqual([{ id: 'B-DEEP', type: 'text', markdown: 'the deepest sync text' }]);
  });

  it('documentIds limits the search to those documents', async () => {
    expect((await search({ include: 'sync', documentIds: ids.oldPlan })).map((i) => i.documentId)).toEqual([ids.oldPlan]);
  });

  it('location limits the search to a location', async () => {
    expect((await search({ include: 'note', location: 'daily_notes' })).map((i) => i.documentId).sort()).toEqual([ids.yesterday, ids.today].sort());
    expect((await search({ include: 'gone', location: 'trash' })).map((i) => i.documentId)).toEqual([ids.trashed]);
  });

  it('folderIds limits the search to folders, recursively', async () => {
    expect((await search({ include: 'sync', folderIds: ids.archive })).map((i) => i.documentId)).toEqual([ids.oldPlan]);
    expect((await search({ include: 'sync', folderIds: [ids.projects] })).map((i) => i.documentId).sort()).toEqual([ids.oldPlan, ids.roadmap].sort());
  });

  it('applies the six date filters', async () => {
    expect((await search({ include: 'note', dailyNoteDateGte: 'today' })).map((i) => i.documentId)).toEqual([ids.today]);
    expect((await search({ include: 'sync', createdDateGte: '2026-08-01' })).map((i) => i.documentId)).toEqual([ids.roadmap]);
  });

  it('refuses documentIds combined with location', async () => {
    expect((await h.api('GET', '/documents/search', { query: { include: 'x', documentIds: ids.roadmap, location: 'unsorted' } })).status).toBe(400);
  });

  it('refuses documentIds combined with folderIds', async () => {
    expect((await h.api('GET', '/documents/search', { query: { include: 'x', documentIds: ids.roadmap, folderIds: ids.projects } })).status).toBe(400);
  });

  it('refuses location combined with folderIds', async () => {
    expect((await h.api('GET', '/documents/search', { query: { include: 'x', location: 'unsorted', folderIds: ids.projects } })).status).toBe(400);
  });

  it('refuses a search with neither include nor regexps', async () => {
    const r = await h.api('GET', '/documents/search');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });
});
