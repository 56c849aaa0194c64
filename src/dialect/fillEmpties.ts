// Empty paragraphs between, before and after blocks, from the newlines of each gap.
import { dialectError, lineNumberAt, type Ctx, type ScanNode } from './scanContext.js';

/**
 * Empty paragraphs are real blocks. Rendering separates blocks by one blank line and ends with one
 * newline, so the newlines of each gap tell how many empty blocks it holds; they sit at zero-width
 * positions where rendering would have put them. Then callout groups are flattened into members.
 */
interface Fill {
  text: string;
  out: ScanNode[];
  base: number;
  inCallout: boolean;
}

function empty(f: Fill, at: number): ScanNode {
  const node: ScanNode = { kind: 'block', start: at, end: at, level: 0, base: f.base, markdown: f.inCallout ? '<callout></callout>' : '' };
  if (f.inCallout) node.inCallout = true;
  return node;
}

/** Puts `count` empty blocks after newline number `first`, `first + 2`, … of text[from, to) (0: at `from`). */
function place(f: Fill, from: number, to: number, count: number, first: number): void {
  let seen = 0;
  let want = first;
  let made = 0;
  if (made < count && want === 0) {
    f.out.push(empty(f, from));
    made++;
    want += 2;
  }
  for (let k = from; k < to && made < count; k++) {
    if (f.text.charCodeAt(k) !== 10) continue;
    seen++;
    if (seen === want) {
      f.out.push(empty(f, k + 1));
      made++;
      want += 2;
    }
  }
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) n++;
  return n;
}

/**
 * Empty paragraphs are real blocks. Rendering separates blocks by one blank line and ends with one
 * newline, so the newlines of each gap tell how many empty blocks it holds; they sit at zero-width
 * positions where rendering would have put them. Then callout groups are flattened into members.
 */
export function fillEmpties(ctx: Ctx, nodes: ScanNode[], start: number, end: number, inCallout: boolean, base: number): ScanNode[] {
  const { text } = ctx;
  const f: Fill = { text, out: [], base, inCallout };
  if (nodes.length === 0) {
    place(f, start, end, (newlines(text, start, end) + 1) >> 1, 0);
    return f.out;
  }
  let prev = start;
  for (let idx = 0; idx < nodes.length; idx++) {
    const node = nodes[idx]!;
    const n = newlines(text, prev, node.start);
    if (idx === 0) place(f, prev, node.start, n >> 1, 0);
    else if (n >= 4) place(f, prev, node.start, (n - 2) >> 1, 2);
    if (node.group) f.out.push(...node.group);
    else f.out.push(node);
    prev = node.end;
  }
  const n = newlines(text, prev, end);
  if (n >= 3) place(f, prev, end, (n - 1) >> 1, 2);
  if (ctx.firstItemRule) checkFirstListItems(ctx, f.out);
  return f.out;
}

function checkFirstListItems(ctx: Ctx, nodes: ScanNode[]): void {
  nodes.forEach((n, k) => {
    if (n.emptyList && !nodes[k - 1]?.list) {
      throw dialectError(lineNumberAt(ctx, n.start), 'the first item of a list cannot be empty', 'Write text after the list marker, or remove the empty item');
    }
  });
}
