// A `<page>`/`<card>` wrapper: opening tag, `<pageTitle>`, `<content>` … `</content>`, closing tag.
import { leading, levelOf, skipColumns } from './lines.js';
import { WRAPPER_OPEN } from './lineKind.js';
import { trimmedRest, type Ctx, type Region, type ScanNode } from './scanContext.js';

/** `<page …>` / `<card …>`, `<pageTitle>`, `<content>` … `</content>`, the closing tag; null when the shape does not hold. */
export function scanWrapper(ctx: Ctx, r: Region, i: number, q: number, cols: number, rest: string): { node: ScanNode; last: number } | null {
  const { text } = ctx;
  const L = r.lines;
  const m = WRAPPER_OPEN.exec(rest);
  if (!m) return null;
  const tag = m[1]!;
  const attrs: Record<string, string> = {};
  for (const a of (m[2] ?? '').matchAll(/([A-Za-z][\w-]*)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
  let j = i + 1;
  let title = '';
  let openEnd = L[i]!.e;
  const titleLine = j < L.length ? /^<pageTitle>(.*)<\/pageTitle>$/.exec(trimmedRest(text, L[j]!)) : null;
  if (titleLine) {
    title = titleLine[1]!;
    openEnd = L[j]!.e;
    j++;
  }
  let children: ScanNode[] = [];
  let closeStart: number;
  if (j < L.length && trimmedRest(text, L[j]!) === '<content>') {
    openEnd = L[j]!.e;
    // A file puts the content at the wrapper's own indentation; the text rendering puts `<content>`
    // two spaces in and the blocks four: both read the same.
    const contentCols = leading(text, skipColumns(text, L[j]!.s, L[j]!.e, r.base), L[j]!.e).cols;
    const base = r.base + (contentCols > cols ? contentCols + 2 : cols);
    const inner = ctx.scanRegion(ctx, {
      lines: L,
      depth: r.depth + 1,
      from: j + 1,
      base,
      stopAtContent: true,
      inCallout: false,
      start: L[j]!.n,
      end: text.length,
    });
    if (!inner.closed) return null;
    children = inner.nodes;
    j = inner.next;
    closeStart = leading(text, L[j]!.s, L[j]!.e).p;
    j++;
  } else {
    closeStart = j < L.length ? leading(text, L[j]!.s, L[j]!.e).p : 0;
  }
  if (j >= L.length || trimmedRest(text, L[j]!) !== `</${tag}>`) return null;
  const card = tag === 'card' || attrs.textStyle === 'card';
  return {
    node: {
      kind: card ? 'card' : 'page',
      start: q,
      end: L[j]!.e,
      level: levelOf(cols),
      base: r.base,
      markdown: title,
      ...(Object.keys(attrs).length ? { attrs } : {}),
      openEnd,
      closeStart,
      children,
    },
    last: j,
  };
}
