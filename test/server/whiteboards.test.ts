// Conformance: whiteboards (docs/api.md "Whiteboard element", "Endpoints: Whiteboards"):
// create at a position, list, append, partly update and delete elements, 500 per request.
import { describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { START, useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const wbFixture: SpaceFixture = {
  ...fixture,
  documents: [
    ...fixture.documents!,
    {
      id: 'D-WB',
      title: 'Sketches',
      createdAt: '2026-09-01T10:00:00Z',
      lastModifiedAt: '2026-09-01T10:00:00Z',
      content: [
        {
          id: 'W-1',
          type: 'whiteboard',
          whiteboard: {
            elements: [
              { id: 'e1', type: 'rectangle', x: 10, y: 20, width: 100, height: 50, text: 'Box', strokeColor: '#1e1e1e', roughness: 1 },
              {
                id: 'e2',
                type: 'arrow',
                x: 110,
                y: 45,
                width: 80,
                height: 0,
                text: '',
                points: [
                  [0, 0],
                  [80, 0],
                ],
              },
            ],
            appState: { viewBackgroundColor: '#ffffff' },
            assets: { f1: { mimeType: 'image/png' } },
          },
        },
      ],
    },
  ],
};

const h = useHarness({ fixture: wbFixture });

const elements = async (id = 'W-1') => (await h.api('GET', `/whiteboards/${id}/elements`)).body;
const append = (els: unknown, id = 'W-1') => h.api('POST', `/whiteboards/${id}/elements`, { body: { elements: els } });
const change = (els: unknown, id = 'W-1') => h.api('PUT', `/whiteboards/${id}/elements`, { body: { elements: els } });
const remove = (elementIds: unknown, id = 'W-1') => h.api('DELETE', `/whiteboards/${id}/elements`, { body: { elementIds } });
const many = (n: number, prefix = 'n') => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, type: 'ellipse', x: i, y: i, width: 1, height: 1 }));

describe('POST /whiteboards', () => {
  it('creates an empty whiteboard at the position and answers {whiteboardBlockId}', async () => {
    const r = await h.api('POST', '/whiteboards', { body: { position: { position: 'after', siblingId: 'B-HELLO' } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ whiteboardBlockId: expect.any(String) });
    const doc = (await h.api('GET', '/blocks', { query: { id: ids.unsorted } })).body;
    expect(doc.content.map((b: any) => [b.id, b.type])).toEqual([
      ['B-HELLO', 'text'],
      [r.body.whiteboardBlockId, 'whiteboard'],
    ]);
    expect(await elements(r.body.whiteboardBlockId)).toEqual({ elements: [] });
  });

  it('into a page or a daily note', async () => {
    const a = await h.api('POST', '/whiteboards', { body: { position: { position: 'start', pageId: 'B-PAGE' } } });
    expect((await h.api('GET', '/blocks', { query: { id: 'B-PAGE', maxDepth: 1 } })).body.content[0].id).toBe(a.body.whiteboardBlockId);
    const b = await h.api('POST', '/whiteboards', { body: { position: { position: 'end', date: 'tomorrow' } } });
    expect((await h.api('GET', '/blocks', { query: { date: '2026-09-06' } })).body.content[0].id).toBe(b.body.whiteboardBlockId);
  });

  it('refuses a bad position; an unknown page is a 404', async () => {
    expect((await h.api('POST', '/whiteboards', { body: { position: { position: 'after' } } })).status).toBe(400);
    expect((await h.api('POST', '/whiteboards', { body: { position: { position: 'end', pageId: 'NOPE' } } })).status).toBe(404);
  });
});

describe('GET /whiteboards/{id}/elements', () => {
  it('answers elements, with assets and appState when the whiteboard has them', async () => {
    const r = await h.api('GET', '/whiteboards/W-1/elements');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      elements: wbFixture.documents!.at(-1)!.content![0]!.whiteboard!.elements,
      appState: { viewBackgroundColor: '#ffffff' },
      assets: { f1: { mimeType: 'image/png' } },
    });
  });

  it('an unknown whiteboard, or a block that is not one, is a 404', async () => {
    expect((await h.api('GET', '/whiteboards/NOPE/elements')).status).toBe(404);
    expect((await h.api('GET', '/whiteboards/B-HELLO/elements')).status).toBe(404);
  });
});

describe('POST /whiteboards/{id}/elements', () => {
  it('appends the elements after the existing ones, extra properties kept, and answers the whole drawing', async () => {
    const r = await append([{ id: 'e3', type: 'text', x: 5, y: 5, width: 40, height: 20, text: 'Hi', fontFamily: 1, customData: { tag: 'x' } }]);
    expect(r.status).toBe(200);
    expect(r.body.elements.map((e: any) => e.id)).toEqual(['e1', 'e2', 'e3']);
    expect(r.body.elements[2]).toEqual({ id: 'e3', type: 'text', x: 5, y: 5, width: 40, height: 20, text: 'Hi', fontFamily: 1, customData: { tag: 'x' } });
    expect(r.body.appState).toEqual({ viewBackgroundColor: '#ffffff' });
    expect((await elements()).elements).toHaveLength(3);
  });

  it('an element sent without an id gets one', async () => {
    const r = await append([
      {
        type: 'line',
        points: [
          [0, 0],
          [1, 1],
        ],
      },
    ]);
    expect(r.body.elements[2].id).toEqual(expect.any(String));
  });

  it('refuses an id already on the whiteboard or sent twice, and known fields of the wrong type', async () => {
    expect((await append([{ id: 'e1', type: 'rectangle' }])).status).toBe(400);
    expect(
      (
        await append([
          { id: 'z', type: 'rectangle' },
          { id: 'z', type: 'rectangle' },
        ])
      ).status,
    ).toBe(400);
    expect((await append([{ id: 'z', x: 'left' }])).status).toBe(400);
    expect((await append([{ id: 'z', points: [[0, 'a']] }])).status).toBe(400);
    expect((await elements()).elements).toHaveLength(2);
  });

  it('takes at most 500 elements per request', async () => {
    expect((await append(many(500))).status).toBe(200);
    const r = await append(many(501, 'm'));
    expect(r.status).toBe(400);
    expect(r.body.details[0].message).toMatch(/at most 500/);
    expect((await elements()).elements).toHaveLength(502);
  });

  it('moves the document lastModifiedAt', async () => {
    await append([{ id: 'e9', type: 'ellipse' }]);
    const doc = (await h.api('GET', '/documents', { query: { documentIds: 'D-WB', fetchMetadata: true } })).body.items[0];
    expect(doc.lastModifiedAt).toBe(new Date(START).toISOString());
  });
});

describe('PUT /whiteboards/{id}/elements', () => {
  it('changes only the properties sent; the others, extra ones included, stay', async () => {
    const r = await change([{ id: 'e1', x: 99, text: 'Moved' }]);
    expect(r.status).toBe(200);
    expect(r.body.elements[0]).toEqual({
      id: 'e1',
      type: 'rectangle',
      x: 99,
      y: 20,
      width: 100,
      height: 50,
      text: 'Moved',
      strokeColor: '#1e1e1e',
      roughness: 1,
    });
    expect((await elements()).elements[1]).toEqual(wbFixture.documents!.at(-1)!.content![0]!.whiteboard!.elements[1]);
  });

  it('adds new extra properties', async () => {
    const r = await change([{ id: 'e2', locked: true }]);
    expect(r.body.elements[1].locked).toBe(true);
  });

  it('every element needs its id; an unknown id is a 404 and nothing changes', async () => {
    expect((await change([{ x: 1 }])).status).toBe(400);
    expect(
      (
        await change([
          { id: 'e1', x: 1 },
          { id: 'zz', x: 1 },
        ])
      ).status,
    ).toBe(404);
    expect((await elements()).elements[0].x).toBe(10);
  });

  it('takes at most 500 elements per request', async () => {
    await append(many(500));
    expect((await change(many(500).map((e) => ({ id: e.id, x: 0 })))).status).toBe(200);
    expect((await change([...many(500), { id: 'e1' }].map((e) => ({ id: e.id, x: 0 })))).status).toBe(400);
  });
});

describe('DELETE /whiteboards/{id}/elements', () => {
  it('answers {deletedCount, remainingCount}', async () => {
    const r = await remove(['e1', 'gone']);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deletedCount: 1, remainingCount: 1 });
    expect((await elements()).elements.map((e: any) => e.id)).toEqual(['e2']);
  });

  it('takes at most 500 ids per request, and at least one', async () => {
    expect((await remove(Array.from({ length: 501 }, (_, i) => `x${i}`))).status).toBe(400);
    expect((await remove([])).status).toBe(400);
    const ok = await remove(Array.from({ length: 500 }, (_, i) => (i === 0 ? 'e2' : `x${i}`)));
    expect(ok.body).toEqual({ deletedCount: 1, remainingCount: 1 });
  });

  it('an unknown whiteboard is a 404', async () => {
    expect((await remove(['e1'], 'NOPE')).status).toBe(404);
  });
});
