// Conformance: GET /blocks/search, the in-document search (docs/api.md "Blocks", "Other").
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const search = (query: Record<string, any>) => h.api('GET', '/blocks/search', { query });

describe('GET /blocks/search', () => {
  it('finds matching blocks with their page path and the blocks around them (default 5 before, 5 after)', async () => {
    const r = await search({ blockId: ids.roadmap, pattern: 'deepest' });
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(1);
    const hit = r.body.items[0];
    expect(hit.blockId).toBe('B-DEEP');
    expect(hit.markdown).toBe('the deepest sync text');
    expect(hit.pageBlockPath).toEqual([
      { id: ids.roadmap, content: 'Roadmap' },
      { id: 'B-PAGE', content: 'Sub page' },
      { id: 'B-DEEPER', content: 'Deeper' },
    ]);
    expect(hit.beforeBlocks.map((b: any) => b.blockId)).toEqual(['B-CARD', 'B-CARD-C', 'B-PAGE', 'B-SUB', 'B-DEEPER']);
    expect(hit.afterBlocks).toEqual([{ blockId: 'B-LAST', markdown: 'the end' }]);
    expect(hit.block).toBeUndefined();
  });

  it('beforeBlockCount and afterBlockCount set the context size', async () => {
    const r = await search({ blockId: ids.roadmap, pattern: '^1\\. step two', beforeBlockCount: 1, afterBlockCount: 0 });
    expect(r.body.items[0].beforeBlocks).toEqual([{ blockId: 'B-NUM', markdown: '1. step one' }]);
    expect(r.body.items[0].afterBlocks).toEqual([]);
  });

  it('is case-insensitive by default; caseSensitive=true respects case', async () => {
    expect((await search({ blockId: ids.roadmap, pattern: 'SHIP' })).body.items.map((i: any) => i.blockId)).toEqual(['B-P']);
    expect((await search({ blockId: ids.roadmap, pattern: 'SHIP', caseSensitive: true })).body.items).toEqual([]);
  });

  it('searches only below blockId', async () => {
    const r = await search({ blockId: 'B-PAGE', pattern: 'sync' });
    expect(r.body.items.map((i: any) => i.blockId)).toEqual(['B-DEEP']);
    expect(r.body.items[0].pageBlockPath.map((p: any) => p.id)).toEqual([ids.roadmap, 'B-PAGE', 'B-DEEPER']);
  });

  it('fetchBlocks=true adds the matching block', async () => {
    const r = await search({ blockId: ids.roadmap, pattern: 'dropped', fetchBlocks: true });
    expect(r.body.items[0].block).toMatchObject({ id: 'B-CANC', type: 'text', listStyle: 'task' });
  });

  it('an invalid RE2 pattern is an INVALID_REGEX_ERROR', async () => {
    const r = await search({ blockId: ids.roadmap, pattern: 'a(' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_REGEX_ERROR', details: { pattern: 'a(' } });
  });

  it('blockId and pattern are required', async () => {
    const r = await search({});
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: any) => d.path[0])).toEqual(['blockId', 'pattern']);
  });

  it('an unknown blockId is a 404', async () => {
    expect((await search({ blockId: 'NOPE', pattern: 'x' })).status).toBe(404);
  });
});
