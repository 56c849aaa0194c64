import { describe, expect, it } from 'vitest';
import { parseBlockMarkdown } from './parseBlockMarkdown.js';
import { renderBlockMarkdown } from './renderBlockMarkdown.js';
import { normalizeMarkdown } from './normalizeMarkdown.js';
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
