import { describe, expect, it } from 'vitest';
import { markerOf, withMarker, withoutMarker } from './blockIdMarker.js';

describe('block-id markers at the end of a block', () => {
  it('goes last on the last line, before closing caption and callout tags', () => {
    expect(withMarker('a paragraph', 'a1b2c3d4')).toBe('a paragraph ^a1b2c3d4');
    expect(withMarker('> one\n> two', 'x')).toBe('> one\n> two ^x');
    expect(withMarker('<callout><caption>c</caption></callout>', 'x')).toBe('<callout><caption>c ^x</caption></callout>');
    expect(withMarker('a ^x', 'x')).toBe('a ^x');
  });
  it('is read and taken off only when it is that id, every other byte kept', () => {
    expect(markerOf('- item ^a1b2c3d4')).toBe('a1b2c3d4');
    expect(markerOf('x^a1 and more')).toBeUndefined();
    expect(markerOf('5 ^ 3')).toBeUndefined();
    expect(withoutMarker('text  ^a1', 'a1')).toBe('text ');
    expect(withoutMarker('<callout>t ^a1</callout>', 'a1')).toBe('<callout>t</callout>');
    expect(withoutMarker('text ^b2', 'a1')).toBe('text ^b2');
    for (const md of ['plain', 'two  spaces  ', '- [ ] task', '<callout>x</callout>']) expect(withoutMarker(withMarker(md, 'q9'), 'q9')).toBe(md);
  });
});
