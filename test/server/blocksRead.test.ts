// Conformance: GET /blocks and the wire shape of blocks (docs/api.md "Blocks";
// docs/api.md "Blocks as JSON", "Text rendering").
import { describe, expect, it } from 'vitest';
import { flatten, useHarness } from './harness.js';
import { fixture, ids, PNG_BASE64 } from './spaceFixture.js';

const h = useHarness({ fixture });

const read = async (query: Record<string, any>, headers?: Record<string, string>) => h.api('GET', '/blocks', { query, ...(headers ? { headers } : {}) });
const byId = async (docId = ids.roadmap): Promise<Map<string, any>> => {
  const r = await read({ id: docId });
  return new Map(flatten(r.body).map((b) => [b.id, b]));
};

describe('GET /blocks', () => {
  it('returns one block object (not {items}) with nested content', async () => {
    const r = await read({ id: ids.roadmap });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids.roadmap, type: 'page', markdown: 'Roadmap' });
    expect(r.body.items).toBeUndefined();
    expect(r.body.content.find((b: any) => b.id === 'B-PAGE').content.find((b: any) => b.id === 'B-DEEPER').content[0].id).toBe('B-DEEP');
  });

  it('maxDepth=0 returns only the block, without the content key, with a preview of the content left out', async () => {
    const r = await read({ id: ids.roadmap, maxDepth: 0 });
    expect(r.body).toEqual({
      id: ids.roadmap,
      type: 'page',
      textStyle: 'page',
      markdown: 'Roadmap',
      contentPreviewMd: expect.stringMatching(/^# Roadmap goals\n/),
    });
  });

  it('maxDepth=1 returns direct children, whose own children are not expanded', async () => {
    const r = await read({ id: ids.roadmap, maxDepth: 1 });
    const page = r.body.content.find((b: any) => b.id === 'B-PAGE');
    expect(page).toEqual({ id: 'B-PAGE', type: 'page', textStyle: 'page', markdown: 'Sub page', contentPreviewMd: expect.any(String) });
    expect(r.body.content).toHaveLength(27);
  });

  it('maxDepth defaults to -1: all descendants', async () => {
    expect(flatten((await read({ id: ids.roadmap })).body)).toHaveLength(32);
    expect(flatten((await read({ id: ids.roadmap, maxDepth: -1 })).body)).toHaveLength(32);
  });

  it('reads any block by id, with its subtree', async () => {
    const r = await read({ id: 'B-PAGE', maxDepth: 1 });
    expect(r.body.content.map((b: any) => b.id)).toEqual(['B-SUB', 'B-DEEPER']);
    expect((await read({ id: 'B-P' })).body).toEqual({
      id: 'B-P',
      type: 'text',
      markdown: 'Ship the **sync** engine',
      font: 'serif',
      color: '#AA3300',
      textAlignment: 'center',
    });
  });

  it('fetchMetadata=true adds metadata to every block', async () => {
    const r = await read({ id: 'B-PAGE', fetchMetadata: true });
    for (const b of flatten(r.body)) {
      expect(b.metadata).toEqual({
        createdAt: expect.any(String),
        lastModifiedAt: expect.any(String),
        createdBy: 'USER-1',
        lastModifiedBy: 'USER-1',
        comments: [],
        clickableLink: expect.stringContaining(`documentId=${ids.roadmap}`),
      });
    }
    expect((await read({ id: 'B-PAGE' })).body.metadata).toBeUndefined();
  });

  it('Accept: text/markdown renders the document with page, pageTitle and content tags', async () => {
    const r = await read({ id: ids.unsorted }, { accept: 'text/markdown' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/markdown/);
    expect(r.text).toBe(`<page id="${ids.unsorted}">\n  <pageTitle>Unsorted note</pageTitle>\n  <content>\n    hello world\n  </content>\n</page>`);
  });

  it('Accept: text/markdown renders nested cards with id, textStyle and cardLayout', async () => {
    const r = await read({ id: ids.roadmap }, { accept: 'text/markdown' });
    expect(r.text).toContain(
      '    <page id="B-CARD" textStyle="card" cardLayout="small">\n      <pageTitle>A card</pageTitle>\n      <content>\n        inside the card\n      </content>\n    </page>',
    );
  });

  it('Accept: application/json (or none) is the structured form', async () => {
    expect((await read({ id: ids.unsorted }, { accept: 'application/json' })).body.id).toBe(ids.unsorted);
  });

  it('date fetches the root page of that daily note', async () => {
    const r = await read({ date: '2026-09-04' });
    expect(r.body).toMatchObject({ id: ids.yesterday, type: 'page', markdown: '2026.09.04', content: [{ id: 'B-YDAY', markdown: "yesterday's note" }] });
  });

  it('date accepts today and yesterday in the space time zone', async () => {
    expect((await read({ date: 'today' })).body.id).toBe(ids.today);
    expect((await read({ date: 'yesterday' })).body.id).toBe(ids.yesterday);
    // 22:30 UTC on the 5th is already the 6th in Berlin, which has no note yet.
    h.clock.advance(12.5 * 3600_000);
    expect((await read({ date: 'today' })).status).toBe(404);
    expect((await read({ date: 'yesterday' })).body.id).toBe(ids.today);
  });

  it('date of a day without a daily note is a 404 (reading creates nothing)', async () => {
    expect((await read({ date: 'tomorrow' })).status).toBe(404);
    expect((await h.api('GET', '/documents', { query: { location: 'daily_notes' } })).body.items).toHaveLength(2);
  });

  it('refuses id and date together', async () => {
    const r = await read({ id: ids.roadmap, date: 'today' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('without id or date: a validation issue list saying so', async () => {
    const r = await read({});
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'Validation failed',
      code: 'VALIDATION_ERROR',
      details: [{ code: 'custom', message: "Either 'date' or 'id' must be specified." }],
    });
  });

  it('an unknown id is a 404 NOT_FOUND_ERROR', async () => {
    const r = await read({ id: 'NOPE' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Block not found', code: 'NOT_FOUND_ERROR' });
  });

  it('refuses a maxDepth that is not a whole number of -1 or more', async () => {
    expect((await read({ id: ids.roadmap, maxDepth: 'x' })).status).toBe(400);
    expect((await read({ id: ids.roadmap, maxDepth: -2 })).status).toBe(400);
  });
});

describe('blocks as JSON (live behaviour)', () => {
  it('omits default-valued keys: no textStyle, listStyle, indentationLevel, font, color or alignment on plain text', async () => {
    const b = (await byId()).get('B-LAST');
    expect(b).toEqual({ id: 'B-LAST', type: 'text', markdown: 'the end' });
  });

  it('markdown carries heading prefixes', async () => {
    const m = await byId();
    expect(m.get('B-H1')).toMatchObject({ markdown: '# Roadmap goals', textStyle: 'h1' });
    expect(m.get('B-H2')).toMatchObject({ markdown: '## Details', textStyle: 'h2' });
  });

  it('bullets are "- ", toggles "+ ", and nesting is two spaces per level', async () => {
    const m = await byId();
    expect(m.get('B-BUL')).toEqual({ id: 'B-BUL', type: 'text', markdown: '- first', listStyle: 'bullet' });
    expect(m.get('B-BUL2')).toEqual({ id: 'B-BUL2', type: 'text', markdown: '  - nested', listStyle: 'bullet', indentationLevel: 1 });
    expect(m.get('B-TGL')).toMatchObject({ markdown: '+ toggle', listStyle: 'toggle' });
  });

  it('numbered items are always "1. "', async () => {
    const m = await byId();
    expect([m.get('B-NUM').markdown, m.get('B-NUM2').markdown]).toEqual(['1. step one', '1. step two']);
  });

  it('tasks are "- [ ] ", "- [x] " and "- [-] " with taskInfo', async () => {
    const m = await byId();
    expect(m.get('B-TODO')).toEqual({
      id: 'B-TODO',
      type: 'text',
      markdown: '- [ ] write tests',
      listStyle: 'task',
      taskInfo: { state: 'todo', scheduleDate: '2026-09-05', deadlineDate: '2026-09-10' },
    });
    expect(m.get('B-DONE')).toMatchObject({ markdown: '- [x] design', taskInfo: { state: 'done', completedAt: '2026-09-01T10:00:00.000Z' } });
    expect(m.get('B-CANC')).toMatchObject({ markdown: '- [-] dropped idea', taskInfo: { state: 'canceled', canceledAt: expect.any(String) } });
  });

  it('quotes are "> ", callouts and captions are wrapped in their tags', async () => {
    const m = await byId();
    expect(m.get('B-QUOTE')).toMatchObject({ markdown: '> quoted words', decorations: ['quote'] });
    expect(m.get('B-CALL')).toMatchObject({ markdown: '<callout>a callout</callout>', decorations: ['callout'] });
    expect(m.get('B-CAP')).toMatchObject({ markdown: '<caption>small print</caption>', textStyle: 'caption' });
  });

  it('lines are asterisks by style', async () => {
    const m = await byId();
    expect(m.get('B-LINE-XL').markdown).toBe('***');
    expect(m.get('B-LINE-L').markdown).toBe('****');
    expect(m.get('B-LINE')).toEqual({ id: 'B-LINE', type: 'line', lineStyle: 'regular', markdown: '*****' });
    expect(m.get('B-LINE-S').markdown).toBe('******');
    expect(m.get('B-LINE-PB').markdown).toBe('*******');
  });

  it('code is a fenced block with its language; rawCode holds the source', async () => {
    expect((await byId()).get('B-CODE')).toEqual({
      id: 'B-CODE',
      type: 'code',
      markdown: '```typescript\nconst a = 1;\n```',
      language: 'typescript',
      rawCode: 'const a = 1;',
    });
  });

  it('image markdown is ![Image](url), file is [fileName](url), richUrl is [title](url)', async () => {
    const m = await byId();
    expect(m.get('B-IMG').markdown).toBe(`![Image](${m.get('B-IMG').url})`);
    expect(m.get('B-FILE').markdown).toBe(`[pixel.png](${m.get('B-FILE').url})`);
    expect(m.get('B-RICH')).toEqual({
      id: 'B-RICH',
      type: 'richUrl',
      markdown: '[Example](https://example.com/)',
      url: 'https://example.com/',
      title: 'Example',
      description: 'An example site',
    });
  });

  it("a page or card block's markdown is its bare title", async () => {
    const m = await byId();
    expect(m.get('B-PAGE')).toMatchObject({ type: 'page', markdown: 'Sub page' });
    expect(m.get('B-CARD')).toMatchObject({ type: 'page', markdown: 'A card', textStyle: 'card', cardLayout: 'small' });
  });

  it('empty paragraphs are real blocks with markdown ""', async () => {
    expect((await byId()).get('B-EMPTY')).toEqual({ id: 'B-EMPTY', type: 'text', markdown: '' });
  });

  it('media URLs are signed and change on every read', async () => {
    const a = (await byId()).get('B-IMG').url;
    const b = (await byId()).get('B-IMG').url;
    expect(a).not.toBe(b);
    expect(a).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/A-IMG\?.*sig=/);
  });

  it('a signed URL serves the file; a tampered one is refused', async () => {
    const url: string = (await byId()).get('B-IMG').url;
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await ok.arrayBuffer()).toString('base64')).toBe(PNG_BASE64);
    expect((await fetch(url.replace(/sig=[0-9a-f]/, 'sig=x'))).status).toBe(403);
  });

  it('ids are compared as given (opaque strings)', async () => {
    expect((await read({ id: 'b-p' })).status).toBe(404);
  });
});

describe('text rendering of a single block', () => {
  it('Accept: text/markdown of a block that is not a page is its own markdown', async () => {
    const r = await h.api('GET', '/blocks', { query: { id: 'B-BUL2' }, headers: { accept: 'text/markdown' } });
    expect(r.text).toBe('  - nested');
  });
});

describe('key sets and key order of the recorded live responses (docs/server.md)', () => {
  const keys = (b: any) => Object.keys(b);

  it('pages carry textStyle page (cards card) and no title key; markdown after the type fields', async () => {
    const m = await byId();
    expect(keys((await read({ id: ids.roadmap, maxDepth: 0 })).body)).toEqual(['id', 'type', 'textStyle', 'markdown', 'contentPreviewMd']);
    expect(keys(m.get('B-CARD'))).toEqual(['id', 'type', 'textStyle', 'cardLayout', 'markdown', 'content']);
    expect(m.get('B-PAGE')).toMatchObject({ textStyle: 'page', markdown: 'Sub page' });
    expect(m.get('B-PAGE')).not.toHaveProperty('title');
  });

  it('a regular line says lineStyle regular; code, tasks, lists, quotes and styled text in the live order', async () => {
    const m = await byId();
    expect(keys(m.get('B-LINE'))).toEqual(['id', 'type', 'lineStyle', 'markdown']);
    expect(keys(m.get('B-CODE'))).toEqual(['id', 'type', 'language', 'rawCode', 'markdown']);
    expect(keys(m.get('B-DONE'))).toEqual(['id', 'type', 'taskInfo', 'listStyle', 'markdown']);
    expect(keys(m.get('B-BUL2'))).toEqual(['id', 'type', 'indentationLevel', 'listStyle', 'markdown']);
    expect(keys(m.get('B-CAP'))).toEqual(['id', 'type', 'textStyle', 'markdown']);
    expect(keys(m.get('B-QUOTE'))).toEqual(['id', 'type', 'decorations', 'markdown']);
    expect(keys(m.get('B-P'))).toEqual(['id', 'type', 'textAlignment', 'font', 'color', 'markdown']);
    expect(keys(m.get('B-RICH'))).toEqual(['id', 'type', 'url', 'title', 'description', 'markdown']);
    expect(keys(m.get('B-IMG'))).toEqual(['id', 'type', 'url', 'markdown']);
  });

  it('a whiteboard has a url and ![Whiteboard](url) as markdown, and sent back as read it changes nothing', async () => {
    const wb = await h.api('POST', '/whiteboards', { body: { position: { position: 'end', pageId: ids.unsorted } } });
    const id = wb.body.whiteboardBlockId;
    const block = (await read({ id })).body;
    expect(keys(block)).toEqual(['id', 'type', 'url', 'markdown']);
    expect(block.url).toMatch(new RegExp(`/whiteboards/${id}$`));
    expect(block.markdown).toBe(`![Whiteboard](${block.url})`);
    const before = (await read({ id, fetchMetadata: true })).body.metadata.lastModifiedAt;
    const put = await h.api('PUT', '/blocks', { body: { blocks: [block] } });
    expect(put.status).toBe(200);
    expect((await read({ id, fetchMetadata: true })).body.metadata.lastModifiedAt).toBe(before);
  });

  it('every block read back is accepted again by POST /blocks, an empty nested list item included', async () => {
    const empty = await h.api('POST', '/blocks', {
      body: {
        blocks: [
          { type: 'text', markdown: '- parent' },
          { type: 'text', markdown: '  - ', listStyle: 'bullet', indentationLevel: 1 },
        ],
        position: { position: 'end', pageId: ids.unsorted },
      },
    });
    expect(empty.status).toBe(200);
    const asRead = (await read({ id: empty.body.items[1].id })).body;
    expect(asRead).toEqual({ id: asRead.id, type: 'text', indentationLevel: 1, listStyle: 'bullet', markdown: '  - ' });
    const m = await byId();
    const copies = [...m.values()]
      .filter((b) => b.id !== ids.roadmap && !['page', 'file', 'richUrl'].includes(b.type) && !b.content)
      .map(({ id: _id, ...rest }) => rest);
    const r = await h.api('POST', '/blocks', {
      body: { blocks: [asRead, ...copies].map(({ id: _id, ...rest }: any) => rest), position: { position: 'end', pageId: ids.unsorted } },
    });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ indentationLevel: 1, listStyle: 'bullet', markdown: '  - ' });
    expect(r.body.items.slice(1).map((b: any) => b.markdown)).toEqual(
      copies.map((b) => (b.type === 'image' ? expect.stringMatching(/^!\[Image\]\(http/) : b.markdown)),
    );
  });
});
