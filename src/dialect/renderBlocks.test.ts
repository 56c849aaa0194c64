import { describe, expect, it } from 'vitest';
import { renderBlockMarkdown, renderDocumentMarkdown, renderFileBody } from './renderBlocks.js';
import type { Block, ParsedBlockNode } from './types.js';
import fc from 'fast-check';
import { splitMarkdown } from './parseBlockMarkdown.js';
import { segmentFile } from './segmentFile.js';
import { blockTree } from '../../test/support/dialectArbitraries.js';

describe('renderBlockMarkdown', () => {
  it.each([
    [{ type: 'text', body: 'x', listStyle: 'bullet', indentationLevel: 2 }, '    - x'],
    [{ type: 'text', body: 'x', listStyle: 'task', taskInfo: { state: 'canceled' } }, '- [-] x'],
    [{ type: 'text', body: 'x', listStyle: 'numbered', textStyle: 'h2' }, '1. ## x'],
    [{ type: 'text', body: 'a\nb', decorations: ['quote'], indentationLevel: 1 }, '  > a\n  > b'],
    [{ type: 'text', body: 'x', decorations: ['callout', 'quote'], listStyle: 'toggle' }, '<callout>> + x</callout>'],
    [{ type: 'text', body: 'x', textStyle: 'caption', indentationLevel: 1 }, '  <caption>x</caption>'],
    [{ type: 'line', lineStyle: 'strong' }, '******'],
    [{ type: 'line' }, '*****'],
    [{ type: 'code', rawCode: 'a\n```\nb', language: 'markdown' }, '````markdown\na\n```\nb\n````'],
    [{ type: 'code', rawCode: '' }, '```\n```'],
    [{ type: 'code', rawCode: 'x\n\ny', language: 'go', indentationLevel: 1 }, '  ```go\n  x\n\n  y\n  ```'],
    [{ type: 'image', url: 'https://u/a.png' }, '![Image](https://u/a.png)'],
    [{ type: 'video', url: 'https://u/v.mp4' }, '![Image](https://u/v.mp4)'],
    [{ type: 'whiteboard', url: 'https://u/w.png' }, '![Whiteboard](https://u/w.png)'],
    [{ type: 'file', fileName: 'report.pdf', url: 'https://u/r.pdf' }, '[report.pdf](https://u/r.pdf)'],
    [{ type: 'richUrl', title: 'Example', url: 'https://example.com' }, '[Example](https://example.com)'],
    [{ type: 'page', body: 'Title' }, 'Title'],
    [{ type: 'page', textStyle: 'card', title: 'Card title' }, 'Card title'],
    [{ type: 'text', markdown: '* _x_', listStyle: 'bullet' }, '- *x*'],
  ] as const)('%j → %j', (fields, md) => {
    expect(renderBlockMarkdown(fields as never)).toBe(md);
  });

  it('renders a collection read without its items as a preview', () => {
    expect(renderBlockMarkdown({ type: 'collection', title: 'T' })).toBe(
      '<collection>\n  <title>T</title>\n  <properties></properties>\n  <itemsPreview></itemsPreview>\n</collection>',
    );
  });
});

const noCollections = (bs: Block[]): boolean => bs.every((b) => b.type !== 'collection' && noCollections(b.content ?? []));
const nodeMarkdowns = (ns: ParsedBlockNode[]): unknown[] => ns.map((n) => [renderBlockMarkdown(n), nodeMarkdowns(n.children ?? [])]);
const blockMarkdowns = (bs: Block[]): unknown[] => bs.map((b) => [b.markdown, blockMarkdowns(b.content ?? [])]);

describe('renderDocumentMarkdown', () => {
  it('renders the documented example exactly', () => {
    const doc: Block = { id: 'D1', type: 'page', markdown: 'My Doc', content: [{ id: 'B1', type: 'text', markdown: 'hello world' }] };
    expect(renderDocumentMarkdown(doc)).toBe('<page id="D1">\n  <pageTitle>My Doc</pageTitle>\n  <content>\n    hello world\n  </content>\n</page>');
  });

  it('nests pages and cards with id, textStyle and cardLayout, four spaces in per level', () => {
    const doc: Block = {
      id: 'D',
      type: 'page',
      markdown: 'Doc',
      content: [
        { id: 'L1', type: 'text', markdown: '- a', listStyle: 'bullet' },
        { id: 'L2', type: 'text', markdown: '  - b', listStyle: 'bullet', indentationLevel: 1 },
        { id: 'C', type: 'page', textStyle: 'card', cardLayout: 'large', markdown: 'Card', content: [{ id: 'X', type: 'text', markdown: 'one\ntwo' }] },
        { id: 'P', type: 'page', markdown: 'Empty page', content: [] },
        { id: 'T', type: 'table', markdown: '| a |\n|---|\n| 1 |' },
      ],
    };
    expect(renderDocumentMarkdown(doc)).toBe(
      [
        '<page id="D">',
        '  <pageTitle>Doc</pageTitle>',
        '  <content>',
        '    - a',
        '      - b',
        '',
        '    <page id="C" textStyle="card" cardLayout="large">',
        '      <pageTitle>Card</pageTitle>',
        '      <content>',
        '        one',
        '        two',
        '      </content>',
        '    </page>',
        '',
        '    <page id="P">',
        '      <pageTitle>Empty page</pageTitle>',
        '    </page>',
        '',
        '    | a |',
        '    |---|',
        '    | 1 |',
        '  </content>',
        '</page>',
      ].join('\n'),
    );
  });

  it('reads back as the same blocks, as an insert and as a file', () => {
    fc.assert(
      fc.property(blockTree.filter(noCollections), (blocks) => {
        const root: Block = { id: 'ROOT', type: 'page', markdown: 'Doc', content: blocks };
        const text = renderDocumentMarkdown(root);
        const [page, ...rest] = splitMarkdown(text);
        expect(rest).toEqual([]);
        expect(page!.body).toBe('Doc');
        expect(nodeMarkdowns(page!.children ?? [])).toEqual(blockMarkdowns(blocks));
        const [seg] = segmentFile(text).segments;
        expect(seg).toMatchObject({ kind: 'page', markdown: 'Doc', attrs: { id: 'ROOT' } });
      }),
      { numRuns: 300 },
    );
  });

  it('renders collections with the output-only tags', () => {
    const doc: Block = {
      id: 'D',
      type: 'page',
      markdown: 'Doc',
      content: [
        {
          id: 'COL',
          type: 'collection',
          title: 'Tasks',
          content: [
            {
              id: 'I1',
              type: 'collectionItem',
              title: 'Write',
              properties: { status: 'Done', tags: ['a', 'b'] },
              content: [{ id: 'Q', type: 'text', markdown: 'notes' }],
            },
          ],
        },
      ],
    };
    expect(renderDocumentMarkdown(doc)).toContain(
      [
        '    <collection>',
        '      <title>Tasks</title>',
        '      <properties>status, tags</properties>',
        '      <content>',
        '        <collectionItem>',
        '          <title>Write</title>',
        '          <property name="status">Done</property>',
        '          <property name="tags">a, b</property>',
        '          <content>',
        '            notes',
        '          </content>',
        '        </collectionItem>',
        '      </content>',
        '    </collection>',
      ].join('\n'),
    );
  });
});

const text = (id: string, markdown: string, extra: Partial<Block> = {}): Block => ({ id, type: 'text', markdown, ...extra });

describe('renderFileBody', () => {
  it('separates blocks by a blank line and list items by one newline, ending with one newline', () => {
    const body = renderFileBody([
      text('1', '# Title', { textStyle: 'h1' }),
      text('2', 'para'),
      text('3', '- a', { listStyle: 'bullet' }),
      text('4', '1. b', { listStyle: 'numbered' }),
      text('5', '- [ ] c', { listStyle: 'task' }),
      text('6', 'after'),
    ]);
    expect(body).toBe('# Title\n\npara\n\n- a\n1. b\n- [ ] c\n\nafter\n');
  });

  it('writes cards and pages as wrappers without ids, indented as a whole at their level', () => {
    const body = renderFileBody([
      { id: 'C', type: 'page', textStyle: 'card', cardLayout: 'square', markdown: 'Card', content: [text('x', 'inside')] },
      { id: 'P', type: 'page', markdown: 'Sub', indentationLevel: 1, content: [text('y', 'one\ntwo')] },
    ]);
    expect(body).toBe(
      '<card cardLayout="square">\n<pageTitle>Card</pageTitle>\n<content>\ninside\n</content>\n</card>\n\n' +
        '  <page>\n  <pageTitle>Sub</pageTitle>\n  <content>\n  one\n  two\n  </content>\n  </page>\n',
    );
    expect(body).not.toContain('id=');
    const [card, page] = segmentFile(body).segments;
    expect(card).toMatchObject({ kind: 'card', markdown: 'Card', attrs: { cardLayout: 'square' }, level: 0 });
    expect(page).toMatchObject({ kind: 'page', markdown: 'Sub', level: 1 });
    expect(page!.children[0]).toMatchObject({ markdown: 'one\ntwo', depth: 1, indent: 2 });
  });

  it('treats a text block with children as a page', () => {
    expect(renderFileBody([{ id: 'T', type: 'text', markdown: 'Became a page', content: [text('c', 'child')] }])).toBe(
      '<page>\n<pageTitle>Became a page</pageTitle>\n<content>\nchild\n</content>\n</page>\n',
    );
  });

  it('gives empty paragraphs a line of their own that reads back as empty blocks', () => {
    const blocks = [text('e0', ''), text('a', 'a'), text('e1', ''), text('e2', ''), text('b', '- b', { listStyle: 'bullet' }), text('e3', '')];
    const body = renderFileBody(blocks);
    expect(body).toBe('\n\na\n\n\n\n\n\n- b\n\n\n');
    expect(segmentFile(body).segments.map((s) => s.markdown)).toEqual(['', 'a', '', '', '- b', '']);
    expect(renderFileBody([])).toBe('');
    expect(segmentFile(renderFileBody([text('e', '')])).segments.map((s) => s.markdown)).toEqual(['']);
  });

  it('uses the service markdown of each block as is', () => {
    expect(renderFileBody([text('1', 'kept  _as_ sent')])).toBe('kept  _as_ sent\n');
  });
});

describe('collections in a file body', () => {
  it('are a table of their items, the columns their schema keys (not only the keys items use)', () => {
    const body = renderFileBody([
      {
        id: 'c',
        type: 'collection',
        title: 'Tasks',
        properties: { status: '', dueDate: '' },
        content: [{ id: 'i', type: 'collectionItem', title: 'A', properties: { status: 'x' } }],
      },
    ]);
    expect(body).toBe('<collection name="Tasks">\n\n| title | status | dueDate |\n| --- | --- | --- |\n| A | x |  |\n\n</collection>\n');
  });

  it("take their columns from the service's markdown when the block has no properties (a key no item uses stays)", () => {
    const md = '<collection>\n  <title>Tasks</title>\n  <properties>status, dueDate</properties>\n  <content>\n  </content>\n</collection>';
    const body = renderFileBody([
      { id: 'c', type: 'collection', markdown: md, content: [{ id: 'i', type: 'collectionItem', title: 'A', properties: { status: 'x' } }] },
    ]);
    expect(body).toBe('<collection name="Tasks">\n\n| title | status | dueDate |\n| --- | --- | --- |\n| A | x |  |\n\n</collection>\n');
  });

  it("keep the service's own markdown when the items did not come with the block (depth limit)", () => {
    const md = '<collection>\n  <title>Tasks</title>\n  <properties>status, dueDate</properties>\n  <itemsPreview></itemsPreview>\n</collection>';
    expect(renderFileBody([{ id: 'c', type: 'collection', markdown: md }])).toBe(`${md}\n`);
  });
});
