import { describe, expect, it } from 'vitest';
import { canonicalMarkdown, markdownEquals } from './canonicalMarkdown.js';

describe('markdownEquals', () => {
  it.each([
    ['a _b_ c', 'a *b* c'],
    ['==x==', '<highlight color="yellow">x</highlight>'],
    ['---', '*****'],
    ['text  ', 'text'],
    ['a\r\nb', 'a\nb'],
    ['* item', '- item'],
    ['<callout>\ntext\n</callout>', '<callout>text</callout>'],
  ])('%j equals %j', (a, b) => {
    expect(markdownEquals(a, b)).toBe(true);
    expect(markdownEquals(b, a)).toBe(true);
  });

  it.each([
    ['a *b* c', 'a b c'],
    ['# x', '## x'],
    ['- x', '1. x'],
    ['- [ ] x', '- [x] x'],
    ['x', '  x'],
    ['****', '*****'],
  ])('%j differs from %j', (a, b) => {
    expect(markdownEquals(a, b)).toBe(false);
  });

  it('uses the markdown reading for inline forms the plain normalisation leaves', () => {
    expect(canonicalMarkdown('a __b__')).toBe('a **b**');
    expect(markdownEquals('*a* b', '_a_ b')).toBe(true);
    // `_a_b` is no emphasis to the regular rules either way; `*a*b` is: they must differ.
    expect(markdownEquals('*a*b', '_a_b')).toBe(false);
    expect(markdownEquals('***a** b*', '*__a__ b*')).toBe(true);
  });
});
