import { describe, expect, it } from 'vitest';
import { renderFileBody } from './renderFileBody.js';
import { segmentFile } from './segmentFile.js';
import type { Block } from './types.js';

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
