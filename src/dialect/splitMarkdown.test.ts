import { describe, expect, it } from 'vitest';
import { splitMarkdown } from './splitMarkdown.js';
import { isSpacesyncError } from '../errors.js';

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
