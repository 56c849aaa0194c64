import { describe, expect, it } from 'vitest';
import { parseBlockMarkdown, splitMarkdown } from './parseBlockMarkdown.js';
import { renderBlockMarkdown } from './renderBlocks.js';
import { normalizeMarkdown } from './canonicalMarkdown.js';
import { isSpacesyncError } from '../errors.js';
import fc from 'fast-check';
import { leafFields } from '../../test/support/dialectArbitraries.js';

describe('parseBlockMarkdown', () => {
  it.each([
    ['# One', { type: 'text', body: 'One', textStyle: 'h1' }],
    ['#### Four', { type: 'text', body: 'Four', textStyle: 'h4' }],
    ['- item', { type: 'text', body: 'item', listStyle: 'bullet' }],
    ['1. item', { type: 'text', body: 'item', listStyle: 'numbered' }],
    ['+ item', { type: 'text', body: 'item', listStyle: 'toggle' }],
    ['- [ ] t', { type: 'text', body: 't', listStyle: 'task', taskInfo: { state: 'todo' } }],
    ['- [x] t', { type: 'text', body: 't', listStyle: 'task', taskInfo: { state: 'done' } }],
    ['- [-] t', { type: 'text', body: 't', listStyle: 'task', taskInfo: { state: 'canceled' } }],
    ['> q', { type: 'text', body: 'q', decorations: ['quote'] }],
    ['<callout>c</callout>', { type: 'text', body: 'c', decorations: ['callout'] }],
    ['<caption>c</caption>', { type: 'text', body: 'c', textStyle: 'caption' }],
    ['    - deep', { type: 'text', body: 'deep', listStyle: 'bullet', indentationLevel: 2 }],
    ['***', { type: 'line', body: '', lineStyle: 'extraLight' }],
    ['*****', { type: 'line', body: '' }],
    ['*******', { type: 'line', body: '', lineStyle: 'pageBreak' }],
    ['```python\nprint(1)\n```', { type: 'code', body: 'print(1)', rawCode: 'print(1)', language: 'python' }],
    ['![Image](https://x/a.png)', { type: 'image', body: '', url: 'https://x/a.png' }],
    ['', { type: 'text', body: '' }],
    ['- ', { type: 'text', body: '', listStyle: 'bullet' }],
    ['- [ ] ', { type: 'text', body: '', listStyle: 'task', taskInfo: { state: 'todo' } }],
    ['   ', { type: 'text', body: '   ' }],
  ])('reads %j', (md, fields) => {
    expect(parseBlockMarkdown(md)).toEqual(fields);
  });

  it('renders what it read back to the same markdown', () => {
    for (const md of ['# One', '  - [x] done *now*', '<callout>> quoted</callout>', '```typescript\nconst a = 1;\n```', '****', '+ toggle', 'trailing  ']) {
      expect(renderBlockMarkdown(parseBlockMarkdown(md))).toBe(md);
    }
  });

  it('reads back the fields of any block it rendered', () => {
    fc.assert(
      fc.property(leafFields, (f) => {
        const md = renderBlockMarkdown(f);
        const parsed = parseBlockMarkdown(md);
        expect(parsed).toEqual(f.type === 'code' ? { ...f, body: f.rawCode } : f);
        expect(normalizeMarkdown(md)).toBe(md);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses markdown that would become several blocks', () => {
    expect(() => parseBlockMarkdown('first\n\nsecond')).toThrow(/line 3.*2 blocks/);
    expect(() => parseBlockMarkdown('- a\n- b')).toThrow(/2 blocks/);
  });

  it('refuses output-only tags with a dialect_input error', () => {
    try {
      parseBlockMarkdown('a <property name="x">1</property>');
      expect.unreachable();
    } catch (e) {
      expect(isSpacesyncError(e, 'dialect_input')).toBe(true);
    }
  });
});

describe('normalizeMarkdown', () => {
  it.each([
    ['_x_', '*x*'],
    ['__x__', '**x**'],
    ['==x==', '<highlight color="yellow">x</highlight>'],
    ['---', '*****'],
    ['* item', '- item'],
    ['7) item', '1. item'],
    ['- [X] item', '- [x] item'],
    ['a\r\nb', 'a\nb'],
    ['keep  ', 'keep  '],
    ['snake_case_name and `_code_` and [l](http://x/_a_)', 'snake_case_name and `_code_` and [l](http://x/_a_)'],
    ['$$\nx_1\n$$', '```math_formula\nx_1\n```'],
  ])('%j → %j', (input, out) => {
    expect(normalizeMarkdown(input)).toBe(out);
  });
});

const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
};

describe('splitMarkdown', () => {
  it('splits paragraphs on blank lines and list items on newlines', () => {
    expect(splitMarkdown('first\n\nsecond').map((b) => b.body)).toEqual(['first', 'second']);
    expect(splitMarkdown('- a\n  - b')).toEqual([
      { type: 'text', body: 'a', listStyle: 'bullet' },
      { type: 'text', body: 'b', listStyle: 'bullet', indentationLevel: 1 },
    ]);
  });

  it('keeps a soft line break inside a paragraph', () => {
    expect(splitMarkdown('one\ntwo')).toEqual([{ type: 'text', body: 'one\ntwo' }]);
  });

  it('gives each paragraph of a callout the callout decoration', () => {
    expect(splitMarkdown('<callout>\np1\n\np2\n</callout>')).toEqual([
      { type: 'text', body: 'p1', decorations: ['callout'] },
      { type: 'text', body: 'p2', decorations: ['callout'] },
    ]);
  });

  it('nests pages and cards with their content', () => {
    const [card] = splitMarkdown('<card cardLayout="small">\n<pageTitle>T</pageTitle>\n<content>\nin\n</content>\n</card>');
    expect(card).toEqual({ type: 'page', body: 'T', title: 'T', textStyle: 'card', cardLayout: 'small', children: [{ type: 'text', body: 'in' }] });
  });

  it('names the line of an empty first list item', () => {
    const e = errorOf(() => splitMarkdown('text\n\n- \n- b'));
    expect(isSpacesyncError(e, 'dialect_input')).toBe(true);
    expect((e as Error).message).toMatch(/line 3/);
  });

  it('names the line of refused input inside a callout', () => {
    expect(() => splitMarkdown('a\n\n<callout>\nb\n\n</page>\n</callout>')).toThrow(/line 6/);
  });

  it('accepts an empty list item after the first', () => {
    expect(splitMarkdown('- a\n- \n- c').map((b) => b.body)).toEqual(['a', '', 'c']);
  });

  it('refuses output-only collection tags, naming the line', () => {
    expect(() => splitMarkdown('ok\n\n<collection>\n<title>x</title>\n</collection>')).toThrow(/line 3.*output-only/);
    expect(() => splitMarkdown('ok\n\nan <itemsPreview> inline')).toThrow(/line 3.*output-only/);
  });

  it('allows output-only tag names inside code', () => {
    expect(splitMarkdown('```html\n<title>x</title>\n```')[0]).toMatchObject({ type: 'code', rawCode: '<title>x</title>' });
    expect(splitMarkdown('use `<title>` here')[0]).toMatchObject({ type: 'text' });
  });

  it('refuses an unclosed page and a stray closing tag', () => {
    expect(() => splitMarkdown('<page>\n<pageTitle>x</pageTitle>')).toThrow(/line 1/);
    expect(() => splitMarkdown('a\n\n</callout>')).toThrow(/line 3/);
  });
});
