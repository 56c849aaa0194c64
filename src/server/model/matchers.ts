// Search matchers: include terms (literal, case-insensitive) and RE2 patterns (re2js: linear
// time, no native build), both giving the [start, end) ranges they match in a text.
import { RE2JS } from 're2js';
import { invalidRegex } from '../http/apiError.js';

export interface Matcher {
  ranges(text: string): Array<[number, number]>;
}

export function literalMatcher(term: string): Matcher {
  const re = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  return {
    ranges(text) {
      const out: Array<[number, number]> = [];
      for (const m of text.matchAll(re)) out.push([m.index, m.index + m[0].length]);
      return out;
    },
  };
}

/** Compiles an RE2 pattern; a pattern RE2 rejects is the service's INVALID_REGEX_ERROR. */
export function compileRe2(pattern: string, caseSensitive: boolean): Matcher {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    throw invalidRegex(pattern, (e as Error).message);
  }
  return {
    ranges(text) {
      const out: Array<[number, number]> = [];
      const m = re.matcher(text);
      let from = 0;
      while (from <= text.length && m.find(from)) {
        const start = m.start();
        const end = m.end();
        out.push([start, end]);
        from = end > start ? end : end + 1;
      }
      return out;
    },
  };
}
