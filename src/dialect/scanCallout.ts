// `<callout>…</callout>` around one block, or around several blocks that each carry the callout.
import { dedent, leading, type Line } from './lines.js';
import { nextOf, type Ctx, type Region, type ScanNode } from './scanContext.js';

/** `<callout>…</callout>`: one block, or several blocks that each carry the callout. */
export function scanCallout(ctx: Ctx, r: Region, i: number, q: number, p: number, level: number): { node: ScanNode; last: number } | null {
  const { text } = ctx;
  const L = r.lines;
  const TAG = '</callout>';
  const j = nextOf(ctx, L).callout[i]!;
  if (j < 0) return null;
  const c = text.lastIndexOf(TAG, L[j]!.e);
  if (c < (j === i ? p + 9 : L[j]!.s)) return null;
  const closeLine = L[j]!;
  const end = c + TAG.length;
  const sub: Line[] = [];
  let start = p + 9;
  if (j === i) {
    sub.push({ s: start, e: c, n: c });
  } else {
    const first = L[i]!;
    if (leading(text, start, first.e).p < first.e) sub.push({ s: start, e: first.e, n: first.n });
    else start = first.n;
    for (let k = i + 1; k < j; k++) sub.push(L[k]!);
  }
  let regionEnd = c;
  if (j > i) {
    if (leading(text, closeLine.s, c).p < c) sub.push({ s: closeLine.s, e: c, n: c });
    else regionEnd = closeLine.s;
  }
  const inner = ctx.scanRegion(ctx, { lines: sub, depth: r.depth, from: 0, base: r.base, stopAtContent: false, inCallout: true, start, end: regionEnd });
  const members = inner.nodes;
  if (members.length <= 1) {
    const only = members[0];
    return {
      node: {
        kind: 'block',
        start: q,
        end,
        level: level + (only?.level ?? 0),
        base: r.base,
        markdown: dedent(text.slice(q, end), r.base),
        ...(only?.list ? { list: true } : {}),
        ...(only?.emptyList ? { emptyList: true } : {}),
      },
      last: j,
    };
  }
  for (const mbr of members) {
    mbr.inCallout = true;
    mbr.markdown = `<callout>${mbr.markdown}</callout>`;
  }
  return { node: { kind: 'block', start: q, end, level, base: r.base, markdown: '', group: members }, last: j };
}
