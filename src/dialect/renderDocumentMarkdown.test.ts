import { describe, expect, it } from 'vitest';
import { renderDocumentMarkdown } from './renderDocumentMarkdown.js';
import type { Block } from './types.js';
import fc from 'fast-check';
import { splitMarkdown } from './splitMarkdown.js';
import { segmentFile } from './segmentFile.js';
import { renderBlockMarkdown } from './renderBlockMarkdown.js';
import { blockTree } from '../../test/support/dialectArbitraries.js';
import type { ParsedBlockNode } from './types.js';

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
