import { describe, expect, it } from 'vitest';
import { renderDocumentMarkdown } from './renderDocumentMarkdown.js';
import type { Block } from './types.js';

describe('renderDocumentMarkdown', () => {
  it('renders the documented example exactly', () => {
    const doc: Block = { id: 'D1', type: 'page', markdown: 'My Doc', content: [{ id: 'B1', type: 'text', markdown: 'hello world' }] };
    expect(renderDocumentMarkdown(doc)).toBe('<page id="D1">\n  <pageTitle>My Doc</pageTitle>\n  <content>\n    hello world\n  </content>\n</page>');
  });

  it('nests pages and cards with id, textStyle and cardLayout, four spaces in per level', () => {
    const doc: Block = {
      id: 'D', type: 'page', markdown: 'Doc', content: [
        { id: 'L1', type: 'text', markdown: '- a', listStyle: 'bullet' },
        { id: 'L2', type: 'text', markdown: '  - b', listStyle: 'bullet', indentationLevel: 1 },
        { id: 'C', type: 'page', textStyle: 'card', cardLayout: 'large', markdown: 'Card', content: [{ id: 'X', type: 'text', markdown: 'one\ntwo' }] },
        { id: 'P', type: 'page', markdown: 'Empty page', content: [] },
        { id: 'T', type: 'table', markdown: '| a |\n|---|\n| 1 |' },
      ],
    };
    expect(renderDocumentMarkdown(doc)).toBe([
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
    ].join('\n'));
  });

  it('renders collections with the output-only tags', () => {
    const doc: Block = {
      id: 'D', type: 'page', markdown: 'Doc', content: [{
        id: 'COL', type: 'collection', title: 'Tasks', content: [
          { id: 'I1', type: 'collectionItem', title: 'Write', properties: { status: 'Done', tags: ['a', 'b'] }, content: [{ id: 'Q', type: 'text', markdown: 'notes' }] },
        ],
      }],
    };
    expect(renderDocumentMarkdown(doc)).toContain([
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
    ].join('\n'));
  });
});
