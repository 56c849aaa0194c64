// Depth-limited reads carry the previews the live service sends (docs/server.md "Depth-limited
// reads"): a page, card or collection item whose children are cut has `contentPreviewMd` and no
// `content`; a collection whose items are cut has `itemsPreviewMd`, also inside the
// `<itemsPreview>` of its markdown; the text rendering shows `<contentPreview>`.
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { collectionFixture } from './collectionsFixture.js';
import { ids } from './spaceFixture.js';
import type { SpaceFixture } from '../../src/server/index.js';

const LONG = Array.from({ length: 60 }, (_, i) => ({ markdown: `Paragraph number ${i + 1} of the long page, with some words.` }));
const fixture: SpaceFixture = {
  ...collectionFixture,
  documents: [...collectionFixture.documents!, { id: 'D-LONG', title: 'Long', content: [{ id: 'P-LONG', type: 'page', title: 'Long page', content: LONG }] }],
};
const h = useHarness({ fixture });

const read = async (id: string, maxDepth: number) => (await h.api('GET', '/blocks', { query: { id, maxDepth } })).body;
const byId = (doc: any, id: string) => doc.content.find((b: any) => b.id === id);

describe('GET /blocks with maxDepth', () => {
  it('a card or page one level below the limit carries contentPreviewMd in place of content', async () => {
    const doc = await read(ids.roadmap, 1);
    const card = byId(doc, 'B-CARD');
    expect(Object.keys(card)).toEqual(['id', 'type', 'textStyle', 'cardLayout', 'markdown', 'contentPreviewMd']);
    expect(card.contentPreviewMd).toBe('inside the card');
    const page = byId(doc, 'B-PAGE');
    expect(page).not.toHaveProperty('content');
    expect(typeof page.contentPreviewMd).toBe('string');
    // Blocks that hold no children have no preview.
    expect(byId(doc, 'B-H1')).not.toHaveProperty('contentPreviewMd');
  });

  it('the preview is the markdown of the content left out, depth first, nested pages by their titles', async () => {
    const doc = await read('D-COLL', 3);
    const item = doc.content[1].content[0];
    expect(item.content.map((b: any) => b.id)).toEqual(['I-1-C', 'I-1-P']);
    const notes = item.content[1];
    expect(notes).toMatchObject({ id: 'I-1-P', contentPreviewMd: 'deep note' });
    const cut = (await read('D-COLL', 2)).content[1].content[0];
    expect(cut).not.toHaveProperty('content');
    expect(cut.contentPreviewMd).toBe('check the tone\nNotes\ndeep note');
  });

  it('a document read at depth 0 previews its content: at most 500 characters, whole lines, then "…"', async () => {
    const root = await read('D-LONG', 0);
    expect(root).not.toHaveProperty('content');
    const preview: string = root.contentPreviewMd;
    expect(preview.length).toBeLessThanOrEqual(500);
    expect(preview.startsWith('Long page\nParagraph number 1 of the long page, with some words.\nParagraph number 2')).toBe(true);
    const lines = preview.split('\n');
    expect(lines.at(-1)).toBe('…');
    expect(lines.slice(1, -1).every((l, i) => l === `Paragraph number ${i + 1} of the long page, with some words.`)).toBe(true);
  });

  it('a full read carries no preview anywhere', async () => {
    const text = JSON.stringify(await read('D-COLL', -1)) + JSON.stringify(await read(ids.roadmap, -1));
    expect(text).not.toMatch(/contentPreviewMd|itemsPreviewMd|<contentPreview>/);
    expect((await read('D-COLL', -1)).content[1].markdown).not.toContain('<itemsPreview>');
  });

  it('a collection whose items are cut carries itemsPreviewMd, also inside <itemsPreview> of its markdown', async () => {
    const c = (await read('D-COLL', 1)).content[1];
    expect(c).not.toHaveProperty('content');
    expect(Object.keys(c).slice(-2)).toEqual(['markdown', 'itemsPreviewMd']);
    expect(c.itemsPreviewMd.split('\n')[0]).toBe('| title | status | dueDate | owner |');
    expect(c.markdown).toContain(`<itemsPreview>\n    ${c.itemsPreviewMd.split('\n')[0]}`);
  });
});

describe('GET /collections/{id}/items?maxDepth=0', () => {
  it('items with content carry contentPreviewMd; items without have none', async () => {
    const items = (await h.api('GET', '/collections/C-1/items', { query: { maxDepth: 0 } })).body.items;
    expect(items[0]).toEqual({
      id: 'I-1',
      title: 'Copy review',
      properties: { status: 'Doing', dueDate: '2026-09-08', owner: 'Ana' },
      contentPreviewMd: 'check the tone\nNotes\ndeep note',
    });
    expect(items[1]).toEqual({ id: 'I-2', title: 'Screenshots', properties: { status: 'Todo', owner: 'Ben' } });
    const full = (await h.api('GET', '/collections/C-1/items')).body.items;
    expect(full[0]).not.toHaveProperty('contentPreviewMd');
    expect(full[0].content).toHaveLength(2);
  });
});

describe('text/markdown', () => {
  it('a cut page shows <contentPreview> in place of <content>', async () => {
    const r = await h.api('GET', '/blocks', { query: { id: ids.roadmap, maxDepth: 1 }, headers: { accept: 'text/markdown' } });
    expect(r.text).toContain(
      [
        '    <page id="B-CARD" textStyle="card" cardLayout="small">',
        '      <pageTitle>A card</pageTitle>',
        '      <contentPreview>',
        '        inside the card',
        '      </contentPreview>',
        '    </page>',
      ].join('\n'),
    );
    expect(r.text).not.toContain('inside the card\n      </content>');
  });
});
