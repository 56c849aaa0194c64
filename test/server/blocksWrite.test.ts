// Conformance: POST /blocks, PUT /blocks, DELETE /blocks, PUT /blocks/move, the position object
// and the text-to-page transition (docs/api.md "Blocks", "Position object"; docs/api.md
// "Writing blocks").
import { describe, expect, it } from 'vitest';
import { flatten, useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const insert = (body: unknown) => h.api('POST', '/blocks', { body });
const update = (blocks: unknown[]) => h.api('PUT', '/blocks', { body: { blocks } });
const doc = async (id: string) => (await h.api('GET', '/blocks', { query: { id } })).body;
const childIds = async (id: string) => (await doc(id)).content.map((b: any) => b.id);
const childMarkdown = async (id: string) => (await doc(id)).content.map((b: any) => b.markdown);
const lastModified = async (id: string) => (await h.api('GET', '/documents', { query: { documentIds: id, fetchMetadata: true } })).body.items[0].lastModifiedAt;

describe('POST /blocks with markdown', () => {
  it('splits and normalises, answering the canonical blocks with their new ids', async () => {
    const r = await insert({ markdown: 'first _em_\n\nsecond ==hi==\n\n---\n\n- a\n  - b', position: { position: 'end', pageId: ids.unsorted } });
    expect(r.status).toBe(200);
    expect(r.body.items.map((b: any) => b.markdown)).toEqual(['first *em*', 'second <highlight color="yellow">hi</highlight>', '*****', '- a', '  - b']);
    expect(r.body.items.every((b: any) => typeof b.id === 'string' && b.id.length > 0)).toBe(true);
    expect(await childIds(ids.unsorted)).toEqual(['B-HELLO', ...r.body.items.map((b: any) => b.id)]);
  });

  it('keeps plain paragraphs, headings, bold, inline code, links, quotes, code, list items, highlight tags and trailing spaces byte-identical', async () => {
    const parts = [
      '# Title',
      'plain **bold** and `code` and [a link](https://example.com)',
      '> a quote',
      '```js\nlet x;\n```',
      '<highlight color="blue">tag</highlight>',
      'trailing  ',
    ];
    const r = await insert({ markdown: parts.join('\n\n'), position: { position: 'end', pageId: ids.unsorted } });
    expect(r.body.items.map((b: any) => b.markdown)).toEqual(parts.map((p) => p.replace('```js', '```javascript')));
  });

  it('nests pages and cards from <page> and <card> wrappers', async () => {
    const r = await insert({
      markdown: '<card cardLayout="large">\n<pageTitle>Card</pageTitle>\n<content>\ninside\n</content>\n</card>',
      position: { position: 'start', pageId: ids.unsorted },
    });
    expect(r.body.items).toEqual([
      {
        id: expect.any(String),
        type: 'page',
        textStyle: 'card',
        cardLayout: 'large',
        markdown: 'Card',
        content: [{ id: expect.any(String), type: 'text', markdown: 'inside' }],
      },
    ]);
  });

  it('refuses both or neither of blocks and markdown', async () => {
    expect((await insert({ position: { position: 'end', pageId: ids.unsorted } })).status).toBe(400);
    expect((await insert({ markdown: 'x', blocks: [{ type: 'text', markdown: 'y' }], position: { position: 'end', pageId: ids.unsorted } })).status).toBe(400);
  });

  it('refuses output-only collection tags', async () => {
    const r = await insert({ markdown: '<collection>\n<title>x</title>\n</collection>', position: { position: 'end', pageId: ids.unsorted } });
    expect(r.status).toBe(400);
    expect(await childIds(ids.unsorted)).toEqual(['B-HELLO']);
  });
});

describe('POST /blocks with blocks', () => {
  it('creates each block from its type, markdown and fields', async () => {
    const r = await insert({
      blocks: [
        { type: 'text', markdown: 'styled', font: 'mono', color: '#112233' },
        { type: 'code', rawCode: 'print(1)', language: 'python' },
        { type: 'line', lineStyle: 'light' },
        { type: 'page', markdown: 'A page', content: [{ type: 'text', markdown: 'child' }] },
      ],
      position: { position: 'end', pageId: ids.unsorted },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.map(({ id: _id, content: _c, ...rest }: any) => rest)).toEqual([
      { type: 'text', markdown: 'styled', font: 'mono', color: '#112233' },
      { type: 'code', markdown: '```python\nprint(1)\n```', language: 'python', rawCode: 'print(1)' },
      { type: 'line', markdown: '****', lineStyle: 'light' },
      { type: 'page', textStyle: 'page', markdown: 'A page' },
    ]);
    expect(r.body.items[3].content.map((b: any) => b.markdown)).toEqual(['child']);
  });

  it('refuses NUL and other C0 control characters in block text with a 400 naming the field, and keeps tab, LF and CR', async () => {
    const at = { position: 'end', pageId: ids.unsorted };
    const bad = await insert({
      blocks: [
        { type: 'text', markdown: 'ok' },
        { type: 'text', markdown: 'a\u0000b' },
      ],
      position: at,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('"path":["blocks",1,"markdown"]');
    expect(JSON.stringify(bad.body)).toContain('U+0000');
    const raw = await insert({ markdown: 'bell \u0007 here', position: at });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(raw.body)).toContain('"path":["markdown"]');
    const created = await insert({ blocks: [{ type: 'text', markdown: 'tab\there' }], position: at });
    expect(created.status).toBe(200);
    const id = (created.body as { items: Array<{ id: string }> }).items[0]!.id;
    const edit = await update([{ id, markdown: 'escape \u001b[0m' }]);
    expect(edit.status).toBe(400);
    expect(JSON.stringify(edit.body)).toContain('"path":["blocks",0,"markdown"]');
    expect((await update([{ id, markdown: 'line one\r\nline two' }])).status).toBe(200);
  });

  it('refuses field values outside the spec value sets', async () => {
    const at = { position: 'end', pageId: ids.unsorted };
    expect((await insert({ blocks: [{ type: 'text', markdown: 'x', color: 'red' }], position: at })).status).toBe(400);
    expect((await insert({ blocks: [{ type: 'text', markdown: 'x', indentationLevel: 6 }], position: at })).status).toBe(400);
    expect((await insert({ blocks: [{ type: 'code', rawCode: 'x', language: 'cobol' }], position: at })).status).toBe(400);
    expect((await insert({ blocks: [{ type: 'nonsense', markdown: 'x' }], position: at })).status).toBe(400);
  });

  it('a text block sent with children becomes a page', async () => {
    const r = await insert({
      blocks: [{ type: 'text', markdown: 'Parent', content: [{ type: 'text', markdown: 'kid' }] }],
      position: { position: 'end', pageId: ids.unsorted },
    });
    expect(r.body.items[0]).toMatchObject({ type: 'page', markdown: 'Parent', content: [{ markdown: 'kid' }] });
  });
});

describe('the position object', () => {
  it('start and end with pageId put blocks first or last in that page', async () => {
    const a = await insert({ markdown: 'at start', position: { position: 'start', pageId: ids.unsorted } });
    const b = await insert({ markdown: 'at end', position: { position: 'end', pageId: ids.unsorted } });
    expect(await childIds(ids.unsorted)).toEqual([a.body.items[0].id, 'B-HELLO', b.body.items[0].id]);
  });

  it('before and after with siblingId put blocks next to that block', async () => {
    await insert({ markdown: 'one\n\ntwo', position: { position: 'before', siblingId: 'B-SUB' } });
    await insert({ markdown: 'three', position: { position: 'after', siblingId: 'B-SUB' } });
    expect(await childMarkdown('B-PAGE')).toEqual(['one', 'two', 'text on the sub page', 'three', 'Deeper']);
  });

  it('a date position writes into that daily note, creating it when missing', async () => {
    await insert({ markdown: 'into the 4th', position: { position: 'start', date: '2026-09-04' } });
    expect(await childMarkdown(ids.yesterday)).toEqual(['into the 4th', "yesterday's note"]);
    const r = await insert({ markdown: 'planning ahead', position: { position: 'end', date: 'tomorrow' } });
    expect(r.status).toBe(200);
    const note = await h.api('GET', '/blocks', { query: { date: '2026-09-06' } });
    expect(note.body).toMatchObject({ type: 'page', markdown: '2026.09.06', content: [{ markdown: 'planning ahead' }] });
    const daily = await h.api('GET', '/documents', { query: { location: 'daily_notes' } });
    expect(daily.body.items.find((d: any) => d.dailyNoteDate === '2026-09-06')).toMatchObject({ title: '2026.09.06' });
  });

  it("position end with no pageId or date writes into today's daily note", async () => {
    await insert({ markdown: 'quick capture', position: { position: 'end' } });
    expect(await childMarkdown(ids.today)).toEqual(["today's note", 'quick capture']);
  });

  it("no position at all also writes at the end of today's daily note", async () => {
    h.clock.advance(86_400_000);
    await insert({ markdown: 'next day' });
    expect((await h.api('GET', '/blocks', { query: { date: '2026-09-06' } })).body.content.map((b: any) => b.markdown)).toEqual(['next day']);
  });

  it('refuses pageId and date together', async () => {
    expect((await insert({ markdown: 'x', position: { position: 'end', pageId: ids.unsorted, date: 'today' } })).status).toBe(400);
  });

  it('refuses before/after without siblingId, and siblingId with start/end', async () => {
    expect((await insert({ markdown: 'x', position: { position: 'after' } })).status).toBe(400);
    expect((await insert({ markdown: 'x', position: { position: 'end', siblingId: 'B-SUB' } })).status).toBe(400);
  });

  it('refuses an unknown position word', async () => {
    expect((await insert({ markdown: 'x', position: { position: 'middle', pageId: ids.unsorted } })).status).toBe(400);
  });

  it('an unknown pageId or siblingId is a 404', async () => {
    expect((await insert({ markdown: 'x', position: { position: 'end', pageId: 'NOPE' } })).status).toBe(404);
    expect((await insert({ markdown: 'x', position: { position: 'after', siblingId: 'NOPE' } })).status).toBe(404);
  });

  it('refuses a document root as siblingId', async () => {
    expect((await insert({ markdown: 'x', position: { position: 'after', siblingId: ids.unsorted } })).status).toBe(400);
  });
});

describe('parents (block text to page)', () => {
  it('a text block that receives children becomes a page', async () => {
    const r = await insert({ markdown: 'child', position: { position: 'end', pageId: 'B-LAST' } });
    expect(r.status).toBe(200);
    const parent = (await h.api('GET', '/blocks', { query: { id: 'B-LAST' } })).body;
    expect(parent).toMatchObject({ id: 'B-LAST', type: 'page', markdown: 'the end', content: [{ markdown: 'child' }] });
  });

  it('a text block that receives moved blocks becomes a page too', async () => {
    const r = await h.api('PUT', '/blocks/move', { body: { blockIds: ['B-H2'], position: { position: 'start', pageId: 'B-P' } } });
    expect(r.status).toBe(200);
    const parent = (await h.api('GET', '/blocks', { query: { id: 'B-P' } })).body;
    expect(parent).toMatchObject({ type: 'page', markdown: 'Ship the **sync** engine', font: 'serif', content: [{ id: 'B-H2' }] });
  });

  it('only page, text and card blocks can be parents', async () => {
    for (const id of ['B-IMG', 'B-CODE', 'B-LINE']) {
      const r = await insert({ markdown: 'child', position: { position: 'end', pageId: id } });
      expect(r.status).toBe(400);
    }
  });
});

describe('writes to a trashed document', () => {
  it('are accepted (200)', async () => {
    const r = await insert({ markdown: 'still writable', position: { position: 'end', pageId: ids.trashed } });
    expect(r.status).toBe(200);
    expect(await childMarkdown(ids.trashed)).toEqual(['gone but searchable', 'still writable']);
    expect((await update([{ id: 'B-GONE', markdown: 'edited in trash' }])).status).toBe(200);
  });
});

describe('PUT /blocks', () => {
  it('changes only the fields sent and answers the updated blocks', async () => {
    const r = await update([{ id: 'B-P', font: 'mono' }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      items: [{ id: 'B-P', type: 'text', markdown: 'Ship the **sync** engine', font: 'mono', color: '#AA3300', textAlignment: 'center' }],
    });
  });

  it('a new markdown keeps the fields markdown does not carry', async () => {
    const r = await update([{ id: 'B-P', markdown: '## Ship _it_' }]);
    expect(r.body.items[0]).toEqual({
      id: 'B-P',
      type: 'text',
      markdown: '## Ship *it*',
      textStyle: 'h2',
      font: 'serif',
      color: '#AA3300',
      textAlignment: 'center',
    });
  });

  it('children stay when a page is renamed', async () => {
    await update([{ id: 'B-PAGE', markdown: 'Renamed page' }]);
    const page = (await h.api('GET', '/blocks', { query: { id: 'B-PAGE' } })).body;
    expect(page).toMatchObject({ markdown: 'Renamed page' });
    expect(page).not.toHaveProperty('title');
    expect(page.content.map((b: any) => b.id)).toEqual(['B-SUB', 'B-DEEPER']);
  });

  it('renaming the root page renames the document', async () => {
    await update([{ id: ids.unsorted, markdown: 'New title' }]);
    expect((await h.api('GET', '/documents', { query: { documentIds: ids.unsorted } })).body.items[0].title).toBe('New title');
  });

  it('a task state change through markdown stamps completedAt and keeps the dates', async () => {
    const r = await update([{ id: 'B-TODO', markdown: '- [x] write tests' }]);
    expect(r.body.items[0].taskInfo).toEqual({
      state: 'done',
      scheduleDate: '2026-09-05',
      deadlineDate: '2026-09-10',
      completedAt: '2026-09-05T10:00:00.000Z',
    });
  });

  it('task dates accept today, tomorrow and yesterday', async () => {
    const r = await update([{ id: 'B-TODO', taskInfo: { scheduleDate: 'tomorrow', deadlineDate: 'yesterday' } }]);
    expect(r.body.items[0].taskInfo).toMatchObject({ state: 'todo', scheduleDate: '2026-09-06', deadlineDate: '2026-09-04' });
  });

  it('the type cannot change', async () => {
    const r = await update([{ id: 'B-P', type: 'code' }]);
    expect(r.status).toBe(400);
  });

  it("refuses a text block's markdown that would become several blocks", async () => {
    const r = await update([{ id: 'B-P', markdown: 'one\n\ntwo' }]);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
    expect((await h.api('GET', '/blocks', { query: { id: 'B-P' } })).body.markdown).toBe('Ship the **sync** engine');
  });

  it("refuses a text block's markdown that would become a non-text block", async () => {
    expect((await update([{ id: 'B-P', markdown: '---' }])).status).toBe(400);
    expect((await update([{ id: 'B-P', markdown: '```\ncode\n```' }])).status).toBe(400);
  });

  it('a PUT of a block exactly as read changes nothing, signed media URLs included', async () => {
    const before = await lastModified(ids.roadmap);
    const read = flatten(await doc(ids.roadmap)).filter((b) => b.id !== ids.roadmap);
    h.clock.advance(60_000);
    const r = await update(read);
    expect(r.status).toBe(200);
    expect(await lastModified(ids.roadmap)).toBe(before);
    const img = r.body.items.find((b: any) => b.id === 'B-IMG');
    expect(img.url).toMatch(/\/assets\/A-IMG\?/);
  });

  it('an unknown id is the plural 404 and nothing changes', async () => {
    const r = await update([
      { id: 'B-P', markdown: 'changed' },
      { id: 'NOPE', markdown: 'x' },
    ]);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ code: 'NOT_FOUND_ERROR', message: 'Block not found' }] });
    expect((await h.api('GET', '/blocks', { query: { id: 'B-P' } })).body.markdown).toBe('Ship the **sync** engine');
  });

  it("moves the document's lastModifiedAt", async () => {
    h.clock.advance(60_000);
    await update([{ id: 'B-HELLO', markdown: 'hello there' }]);
    expect(await lastModified(ids.unsorted)).toBe(new Date(h.clock.now()).toISOString());
  });
});

describe('DELETE /blocks', () => {
  it('answers {items: [{id}]} and removes the blocks with their descendants', async () => {
    const r = await h.api('DELETE', '/blocks', { body: { blockIds: ['B-PAGE', 'B-LAST'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: 'B-PAGE' }, { id: 'B-LAST' }] });
    expect((await h.api('GET', '/blocks', { query: { id: 'B-DEEP' } })).status).toBe(404);
    expect(await childIds(ids.roadmap)).not.toContain('B-PAGE');
  });

  it('an unknown id is a 404 and nothing is deleted', async () => {
    const r = await h.api('DELETE', '/blocks', { body: { blockIds: ['B-LAST', 'NOPE'] } });
    expect(r.status).toBe(404);
    expect(await childIds(ids.roadmap)).toContain('B-LAST');
  });

  it('refuses to delete a document root', async () => {
    expect((await h.api('DELETE', '/blocks', { body: { blockIds: [ids.unsorted] } })).status).toBe(400);
  });
});

describe('PUT /blocks/move', () => {
  it('moves blocks in order to the position and answers {items: [{id}]}', async () => {
    const r = await h.api('PUT', '/blocks/move', { body: { blockIds: ['B-LAST', 'B-H1'], position: { position: 'before', siblingId: 'B-P' } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: 'B-LAST' }, { id: 'B-H1' }] });
    expect((await childIds(ids.roadmap)).slice(0, 3)).toEqual(['B-LAST', 'B-H1', 'B-P']);
  });

  it('moves blocks to another document, keeping ids and children, and both documents change', async () => {
    const before = await lastModified(ids.unsorted);
    h.clock.advance(60_000);
    await h.api('PUT', '/blocks/move', { body: { blockIds: ['B-PAGE'], position: { position: 'end', pageId: ids.unsorted } } });
    expect(await childIds(ids.unsorted)).toEqual(['B-HELLO', 'B-PAGE']);
    expect((await doc(ids.unsorted)).content[1].content.map((b: any) => b.id)).toEqual(['B-SUB', 'B-DEEPER']);
    expect(await lastModified(ids.unsorted)).not.toBe(before);
    expect(await lastModified(ids.roadmap)).toBe(new Date(h.clock.now()).toISOString());
    // Search and reads follow the block to its new document.
    const hits = await h.api('GET', '/documents/search', { query: { include: 'deepest' } });
    expect(hits.body.items.map((i: any) => i.documentId)).toEqual([ids.unsorted]);
  });

  it('refuses to move a block inside itself', async () => {
    expect((await h.api('PUT', '/blocks/move', { body: { blockIds: ['B-PAGE'], position: { position: 'end', pageId: 'B-DEEPER' } } })).status).toBe(400);
  });

  it('refuses to move a document root', async () => {
    expect((await h.api('PUT', '/blocks/move', { body: { blockIds: [ids.unsorted], position: { position: 'end', pageId: ids.roadmap } } })).status).toBe(400);
  });

  it('an unknown id is a 404', async () => {
    expect((await h.api('PUT', '/blocks/move', { body: { blockIds: ['NOPE'], position: { position: 'end', pageId: ids.roadmap } } })).status).toBe(404);
  });
});
