import { describe, expect, it } from 'vitest';
import { ago, count, indentedList, localTime, nameList, shellQuote } from './format.js';

describe('the words every command shares', () => {
  it('counts with the noun in the right number', () => {
    expect(count(1, 'document')).toBe('1 document');
    expect(count(3, 'document')).toBe('3 documents');
    expect(count(0, 'copy', 'copies')).toBe('0 copies');
  });

  it('names up to a few, then counts the rest', () => {
    expect(nameList(['A', 'B'])).toBe('A, B');
    expect(nameList(['A', 'B', 'C', 'D', 'E'])).toBe('A, B, C and 2 more');
  });

  it('lists indented lines up to a maximum and says what shows the rest', () => {
    expect(indentedList(['a', 'b', 'c'], (s) => s.toUpperCase(), { indent: '  ', max: 2, more: '--json lists them all' })).toEqual([
      '  A',
      '  B',
      '  … and 1 more (--json lists them all)',
    ]);
    expect(indentedList(['a'], (s) => s, { indent: '  ', max: 2 })).toEqual(['  a']);
  });

  it('quotes a path for a shell line only when it needs it', () => {
    expect(shellQuote('/home/ana/notes')).toBe('/home/ana/notes');
    expect(shellQuote("/home/ana/Ana's notes")).toBe("'/home/ana/Ana'\\''s notes'");
  });

  it('says how long ago, and a local time, as a person reads them', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(ago('2026-11-24T11:59:58Z', now)).toBe('just now');
    expect(ago('2026-11-24T11:55:00Z', now)).toBe('5 min ago');
    expect(ago('2026-11-21T12:00:00Z', now)).toBe('3 days ago');
    expect(ago('not a time', now)).toBe('at an unknown time');
    expect(localTime('not a time')).toBe('not a time');
    expect(localTime('2026-11-24T12:00:00Z')).toMatch(/^2026-11-2[45] \d\d:00:00$/);
  });
});
