import { describe, expect, it } from 'vitest';
import { compileRe2, literalMatcher, snippet } from './matchers.js';
import { ApiError } from '../http/apiError.js';

describe('search matchers', () => {
  it('include terms are literal and case-insensitive', () => {
    expect(literalMatcher('a.b').ranges('A.B axb a.b')).toEqual([
      [0, 3],
      [8, 11],
    ]);
  });

  it('RE2 patterns find every match, empty matches included once per position', () => {
    expect(compileRe2('o+', true).ranges('foo boo')).toEqual([
      [1, 3],
      [5, 7],
    ]);
    expect(compileRe2('x*', true).ranges('ab')).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(compileRe2('FOO', false).ranges('foo')).toEqual([[0, 3]]);
    expect(compileRe2('FOO', true).ranges('foo')).toEqual([]);
  });

  it('a pattern RE2 rejects (backreferences, lookarounds) is an INVALID_REGEX_ERROR', () => {
    for (const p of ['(a)\\1', '(?=x)', 'a(']) {
      try {
        compileRe2(p, true);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).body).toMatchObject({ code: 'INVALID_REGEX_ERROR', details: { pattern: p } });
      }
    }
  });
});

const hl = (s: string) => `<highlight color="yellow">${s}</highlight>`;

describe('snippet', () => {
  it('wraps every match in a yellow highlight', () => {
    expect(
      snippet('one two one', [
        [0, 3],
        [8, 11],
      ]),
    ).toBe(`${hl('one')} two ${hl('one')}`);
  });

  it('merges overlapping matches', () => {
    expect(
      snippet('abcdef', [
        [1, 4],
        [2, 5],
      ]),
    ).toBe(`a${hl('bcde')}f`);
  });

  it('cuts long text around the first match with ellipses', () => {
    const text = `${'x'.repeat(200)}needle${'y'.repeat(300)}`;
    const s = snippet(text, [[200, 206]]);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain(hl('needle'));
    expect(s.length).toBeLessThan(300);
  });
});
