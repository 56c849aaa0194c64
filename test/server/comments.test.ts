// Conformance: POST /comments (docs/api.md "Comments"; the `<comment id>` tag of the dialect;
// comments in block metadata).
import { describe, expect, it } from 'vitest';
import { START, useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const comment = (comments: unknown) => h.api('POST', '/comments', { body: { comments } });
const read = async (id: string, fetchMetadata = false) => (await h.api('GET', '/blocks', { query: { id, fetchMetadata } })).body;

describe('POST /comments', () => {
  it('answers {items: [{commentId}]}, one per comment, in order', async () => {
    const r = await comment([
      { blockId: 'B-HELLO', content: 'Nice.' },
      { blockId: 'B-P', content: 'Why serif?' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ commentId: expect.any(String) }, { commentId: expect.any(String) }] });
    expect(r.body.items[0].commentId).not.toBe(r.body.items[1].commentId);
  });

  it('the thread is visible in the block metadata', async () => {
    const r = await comment([{ blockId: 'B-HELLO', content: 'first' }]);
    h.clock.advance(1000);
    const r2 = await comment([{ blockId: 'B-HELLO', content: 'second' }]);
    const meta = (await read('B-HELLO', true)).metadata;
    expect(meta.comments).toEqual([
      { id: r.body.items[0].commentId, content: 'first', createdAt: new Date(START).toISOString(), createdBy: 'USER-1' },
      { id: r2.body.items[0].commentId, content: 'second', createdAt: new Date(START + 1000).toISOString(), createdBy: 'USER-1' },
    ]);
  });

  it("a text block shows the thread as <comment id> around its text; the id is the thread's first comment", async () => {
    const r = await comment([{ blockId: 'B-HELLO', content: 'first' }]);
    const id = r.body.items[0].commentId;
    expect((await read('B-HELLO')).markdown).toBe(`<comment id="${id}">hello world</comment>`);
    await comment([{ blockId: 'B-HELLO', content: 'a reply' }]);
    expect((await read('B-HELLO')).markdown).toBe(`<comment id="${id}">hello world</comment>`);
    const text = (await h.api('GET', '/blocks', { query: { id: ids.unsorted }, headers: { accept: 'text/markdown' } })).text;
    expect(text).toContain(`<comment id="${id}">hello world</comment>`);
  });

  it('list items, headings and styled text keep their prefix and fields', async () => {
    const r = await comment([
      { blockId: 'B-BUL', content: 'c' },
      { blockId: 'B-H1', content: 'c' },
      { blockId: 'B-P', content: 'c' },
    ]);
    const [a, b, c] = r.body.items.map((i: any) => i.commentId);
    expect((await read('B-BUL')).markdown).toBe(`- <comment id="${a}">first</comment>`);
    expect((await read('B-H1')).markdown).toBe(`# <comment id="${b}">Roadmap goals</comment>`);
    expect(await read('B-P')).toMatchObject({ markdown: `<comment id="${c}">Ship the **sync** engine</comment>`, font: 'serif', color: '#AA3300' });
  });

  it('blocks without inline text (images, lines, pages) carry the thread in metadata only', async () => {
    await comment([
      { blockId: 'B-IMG', content: 'c' },
      { blockId: 'B-LINE', content: 'c' },
      { blockId: 'B-PAGE', content: 'c' },
    ]);
    expect((await read('B-LINE')).markdown).toBe('*****');
    expect((await read('B-PAGE')).markdown).toBe('Sub page');
    expect((await read('B-IMG', true)).metadata.comments).toHaveLength(1);
  });

  it('moves the lastModifiedAt of the document', async () => {
    h.clock.advance(60_000);
    await comment([{ blockId: 'B-HELLO', content: 'x' }]);
    const doc = (await h.api('GET', '/documents', { query: { documentIds: ids.unsorted, fetchMetadata: true } })).body.items[0];
    expect(doc.lastModifiedAt).toBe(new Date(START + 60_000).toISOString());
  });

  it('an unknown block is a 404 and no comment of the request is stored', async () => {
    const r = await comment([
      { blockId: 'B-HELLO', content: 'x' },
      { blockId: 'NOPE', content: 'y' },
    ]);
    expect(r.status).toBe(404);
    expect((await read('B-HELLO', true)).metadata.comments).toEqual([]);
    expect((await read('B-HELLO')).markdown).toBe('hello world');
  });

  it('refuses an empty comment, a missing blockId and an empty list', async () => {
    expect((await comment([{ blockId: 'B-HELLO', content: '  ' }])).status).toBe(400);
    expect((await comment([{ content: 'x' }])).status).toBe(400);
    expect((await comment([])).status).toBe(400);
  });
});
