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
