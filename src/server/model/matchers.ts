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

// The snippet of a search hit: the matching block's markdown around its first match, with every
// match inside wrapped in a yellow highlight.
const RADIUS = 80;

export function snippet(markdown: string, ranges: ReadonlyArray<readonly [number, number]>): string {
  const sorted = [...ranges].filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const first = sorted[0]?.[0] ?? 0;
  let start = Math.max(0, first - RADIUS);
  let end = Math.min(markdown.length, first + RADIUS * 2);
  // Do not cut a surrogate pair.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(markdown[start] ?? '')) start--;
  if (end < markdown.length && /[\uDC00-\uDFFF]/.test(markdown[end] ?? '')) end++;
  const merged: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const cs = Math.max(s, start);
    const ce = Math.min(e, end);
    if (ce <= cs) continue;
    const last = merged[merged.length - 1];
    if (last && cs <= last[1]) last[1] = Math.max(last[1], ce);
    else merged.push([cs, ce]);
  }
  let out = '';
  let at = start;
  for (const [s, e] of merged) {
    out += `${markdown.slice(at, s)}<highlight color="yellow">${markdown.slice(s, e)}</highlight>`;
    at = e;
  }
  out += markdown.slice(at, end);
  return (start > 0 ? '…' : '') + out + (end < markdown.length ? '…' : '');
}
