// The dialect's line scanner: cuts markdown into blocks by the service's own rules (blank line
// between paragraphs, one line per list item, two spaces per level, page/card/callout wrappers).
// One pass over the lines, no markdown library: CommonMark reads two-space nesting differently.
import { dedent, leading, levelOf, makeLines, skipColumns, type Line } from './lines.js';
import { COLLECTION_OPEN, FENCE, isDelimiterRow, lineKind, WRAPPER_OPEN } from './lineKind.js';
import { dialectError } from './dialectError.js';

/** One block found by the scanner; offsets are UTF-16 indices into the scanned text. */
export interface ScanNode {
  kind: 'block' | 'page' | 'card' | 'readonly';
  start: number;
  end: number;
  level: number;
  /** Wrapper indentation (columns) removed from its continuation lines. */
  base: number;
  /** The block's markdown: wrapper indentation removed, CRLF as LF. Pages: the title. */
  markdown: string;
  list?: boolean;
  emptyList?: boolean;
  inCallout?: boolean;
  attrs?: Record<string, string>;
  /** Pages: end of the opening part, start of the closing part. */
  openEnd?: number;
  closeStart?: number;
  children?: ScanNode[];
  /** A callout over several blocks, before it is flattened into its members. */
  group?: ScanNode[];
}

interface Ctx {
  text: string;
  lines: Line[];
  strict: boolean;
  /** Count of lines closing a page/card at index >= i: unclosed wrappers fail fast. */
  wrapperClosers: Int32Array;
  /** The line closing the collection opened at line i, or -1 (bracket matching over the file). */
  collectionEnd: Int32Array;
  /** Wrapper attempts that failed, by line and base indentation: each is tried once. */
  failed: Set<number>;
  /** Lines wrapper attempts may still read; pathological nesting then reads as text, in linear time. */
  budget: number;
  /** Per line array: the first line at index >= i ending with `$$` (resp. `</callout>`), or -1. */
  next: WeakMap<Line[], { math: Int32Array; callout: Int32Array }>;
}

/** Wrappers nest at most this deep; deeper ones are read as text, which keeps the scanner linear. */
const MAX_DEPTH = 24;

interface Region {
  lines: Line[];
  depth: number;
  from: number;
  base: number;
  stopAtContent: boolean;
  inCallout: boolean;
  start: number;
  /** Where the region ends when it runs to its last line. */
  end: number;
}

const trimmedRest = (text: string, l: Line): string => text.slice(leading(text, l.s, l.e).p, l.e).trimEnd();

/** Scans `text` from `from` on (a file body or an insert). Strict mode throws dialect_input for refused input. */
export function scanBlocks(text: string, strict: boolean, from = 0): ScanNode[] {
  const lines = makeLines(text, from);
  const wrapperClosers = new Int32Array(lines.length + 1);
  const collectionEnd = new Int32Array(lines.length).fill(-1);
  const open: number[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    let w = 0;
    const lp = leading(text, l.s, l.e).p;
    if (text.charCodeAt(lp) === 60 && text.charCodeAt(lp + 1) === 47) {
      const t = trimmedRest(text, l);
      if (t === '</page>' || t === '</card>') w = 1;
    }
    wrapperClosers[i] = wrapperClosers[i + 1]! + w;
  }
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const lp = leading(text, l.s, l.e).p;
    if (text.charCodeAt(lp) !== 60) continue;
    const t = text.slice(lp, l.e).trimEnd();
    if (t === '</collection>') {
      const o = open.pop();
      if (o !== undefined) collectionEnd[o] = i;
    } else if (COLLECTION_OPEN.test(t)) open.push(i);
  }
  const ctx: Ctx = { text, lines, strict, wrapperClosers, collectionEnd, failed: new Set(), next: new WeakMap(), budget: 32 * lines.length + 10_000 };
  const res = scanRegion(ctx, { lines, depth: 0, from: 0, base: 0, stopAtContent: false, inCallout: false, start: from, end: text.length });
  return res.nodes;
}

function nextOf(ctx: Ctx, L: Line[]): { math: Int32Array; callout: Int32Array } {
  let n = ctx.next.get(L);
  if (n) return n;
  const { text } = ctx;
  const math = new Int32Array(L.length + 1).fill(-1);
  const callout = new Int32Array(L.length + 1).fill(-1);
  for (let i = L.length - 1; i >= 0; i--) {
    const l = L[i]!;
    let e = l.e;
    while (e > l.s && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
    math[i] = e - l.s >= 2 && text.startsWith('$$', e - 2) ? i : math[i + 1]!;
    callout[i] = e - l.s >= 10 && text.startsWith('</callout>', e - 10) ? i : callout[i + 1]!;
  }
  n = { math, callout };
  ctx.next.set(L, n);
  return n;
}

/** The 1-based line number of an offset. */
export function lineNumberAt(ctx: { lines: Line[] }, offset: number): number {
  let lo = 0;
  let hi = ctx.lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.lines[mid]!.s <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function scanRegion(ctx: Ctx, r: Region): { nodes: ScanNode[]; next: number; closed: boolean; end: number } {
  const { text, strict } = ctx;
  const L = r.lines;
  const nodes: ScanNode[] = [];
  // The paragraph, list item or quote being read: its first line, last line, flags.
  let cur: { first: number; last: number; list: boolean; quote: boolean; q: number; level: number; emptyList: boolean } | null = null;
  const flush = () => {
    if (!cur) return;
    const end = L[cur.last]!.e;
    const single = cur.first === cur.last;
    nodes.push({
      kind: 'block', start: cur.q, end, level: cur.level, base: r.base,
      markdown: dedent(text.slice(cur.q, end), r.base),
      ...(cur.list ? { list: true } : {}),
      ...(cur.emptyList && single ? { emptyList: true } : {}),
    });
    cur = null;
  };
  let i = r.from;
  for (; i < L.length; i++) {
    const line = L[i]!;
    if (r.depth > 0) ctx.budget--;
    const q = skipColumns(text, line.s, line.e, r.base);
    const { p, cols } = leading(text, q, line.e);
    if (p >= line.e) { flush(); continue; }
    const rest = text.slice(p, line.e);
    if (r.stopAtContent && rest.trimEnd() === '</content>') {
      flush();
      return { nodes: fillEmpties(ctx, nodes, r.start, line.s, r.inCallout, r.base), next: i, closed: true, end: line.s };
    }
    const level = levelOf(cols);
    let kind = lineKind(rest);
    if (kind === 'text' && rest.includes('|') && i + 1 < L.length) {
      const nl = L[i + 1]!;
      const nq = skipColumns(text, nl.s, nl.e, r.base);
      if (isDelimiterRow(text.slice(leading(text, nq, nl.e).p, nl.e))) {
        flush();
        let k = i + 2;
        while (k < L.length) {
          const kl = L[k]!;
          const kp = leading(text, kl.s, kl.e).p;
          if (kp >= kl.e || !text.slice(kp, kl.e).includes('|') || lineKind(text.slice(kp, kl.e)) !== 'text') break;
          k++;
        }
        nodes.push(leaf(text, q, L[k - 1]!.e, level, r.base));
        i = k - 1;
        continue;
      }
    }
    if (strict && kind === 'text' && (/^<content>\s*$/.test(rest) || rest.startsWith('<pageTitle>'))) {
      throw dialectError(lineNumberAt(ctx, p), `"${rest.trim().slice(0, 40)}" is outside a <page> or <card>`, 'Put <pageTitle> and <content> right inside a <page>…</page> or <card>…</card> wrapper');
    }
    if (r.inCallout && (kind === 'wrapper' || kind === 'callout' || kind === 'collection')) kind = 'text';
    switch (kind) {
      case 'fence': {
        flush();
        const m = FENCE.exec(rest)!;
        const run = m[1] ?? m[3] ?? '```';
        const close = new RegExp(`^${run[0] === '`' ? '`' : '~'}{${run.length},}[ \\t]*$`);
        let k = i + 1;
        while (k < L.length && !close.test(trimmedRest(text, L[k]!))) k++;
        const last = Math.min(k, L.length - 1);
        nodes.push(leaf(text, q, L[last]!.e, level, r.base));
        i = last;
        continue;
      }
      case 'math': {
        const t = rest.trimEnd();
        if (t.length >= 4 && t.endsWith('$$') && t !== '$$') {
          flush();
          nodes.push(leaf(text, q, line.e, level, r.base));
          continue;
        }
        const k = nextOf(ctx, L).math[i + 1]!;
        if (k >= 0) {
          flush();
          nodes.push(leaf(text, q, L[k]!.e, level, r.base));
          i = k;
          continue;
        }
        break;
      }
      case 'wrapper': {
        const key = (L === ctx.lines ? i : L[i]!.s) * 1024 + Math.min(r.base, 1023);
        const tryIt = r.depth < MAX_DEPTH && ctx.budget > 0 && L === ctx.lines && ctx.wrapperClosers[i + 1]! > 0 && !ctx.failed.has(key);
        const w = tryIt ? scanWrapper(ctx, r, i, q, cols, rest) : null;
        if (tryIt && !w) ctx.failed.add(key);
        if (w) {
          flush();
          nodes.push(w.node);
          i = w.last;
          continue;
        }
        if (strict) throw dialectError(i + 1, `the ${rest.trim().slice(0, 40)} wrapper is not closed or not well formed`, 'Write <pageTitle>…</pageTitle>, then <content>, the blocks, </content>, and the closing tag, each on its own line');
        break;
      }
      case 'collection': {
        if (strict) throw outputOnly(ctx, p, rest);
        const k = L === ctx.lines ? ctx.collectionEnd[i]! : -1;
        if (k >= 0) {
          flush();
          nodes.push({ ...leaf(text, q, L[k]!.e, level, r.base), kind: 'readonly' });
          i = k;
          continue;
        }
        break;
      }
      case 'callout': {
        const c = scanCallout(ctx, r, i, q, p, level);
        if (c) {
          flush();
          nodes.push(c.node);
          i = c.last;
          continue;
        }
        if (strict) throw dialectError(i + 1, '<callout> is never closed', 'Close it with </callout>');
        break;
      }
      case 'close':
        if (strict) throw dialectError(i + 1, `${rest.trim()} closes nothing that is open`, 'Remove it or add the opening tag');
        break;
      case 'line':
      case 'heading':
        flush();
        nodes.push(leaf(text, q, line.e, level, r.base));
        continue;
      case 'list':
        flush();
        cur = { first: i, last: i, list: true, quote: false, q, level, emptyList: /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX-]\])?[ \t]*$/.test(rest) };
        continue;
      case 'quote':
        if (cur?.quote) { cur.last = i; continue; }
        flush();
        cur = { first: i, last: i, list: false, quote: true, q, level, emptyList: false };
        continue;
      default:
        break;
    }
    // Anything else continues the open block or starts a paragraph.
    if (cur) cur.last = i;
    else cur = { first: i, last: i, list: false, quote: false, q, level, emptyList: false };
  }
  flush();
  return { nodes: fillEmpties(ctx, nodes, r.start, r.end, r.inCallout, r.base), next: i, closed: false, end: r.end };
}

function leaf(text: string, start: number, end: number, level: number, base: number): ScanNode {
  return { kind: 'block', start, end, level, base, markdown: dedent(text.slice(start, end), base) };
}

function outputOnly(ctx: Ctx, p: number, rest: string) {
  return dialectError(lineNumberAt(ctx, p), `${rest.trim().slice(0, 40)} is an output-only collection tag`, 'Collections cannot be written as markdown; create them with POST /collections');
}

/** `<page …>` / `<card …>`, `<pageTitle>`, `<content>` … `</content>`, the closing tag; null when the shape does not hold. */
function scanWrapper(ctx: Ctx, r: Region, i: number, q: number, cols: number, rest: string): { node: ScanNode; last: number } | null {
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
    const inner = scanRegion(ctx, { lines: L, depth: r.depth + 1, from: j + 1, base: r.base + cols, stopAtContent: true, inCallout: false, start: L[j]!.n, end: text.length });
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
      kind: card ? 'card' : 'page', start: q, end: L[j]!.e, level: levelOf(cols), base: r.base, markdown: title,
      ...(Object.keys(attrs).length ? { attrs } : {}), openEnd, closeStart, children,
    },
    last: j,
  };
}

/** `<callout>…</callout>`: one block, or several blocks that each carry the callout. */
function scanCallout(ctx: Ctx, r: Region, i: number, q: number, p: number, level: number): { node: ScanNode; last: number } | null {
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
  const inner = scanRegion(ctx, { lines: sub, depth: r.depth, from: 0, base: r.base, stopAtContent: false, inCallout: true, start, end: regionEnd });
  const members = inner.nodes;
  if (members.length <= 1) {
    const only = members[0];
    return {
      node: {
        kind: 'block', start: q, end, level: level + (only?.level ?? 0), base: r.base,
        markdown: dedent(text.slice(q, end), r.base),
        ...(only?.list ? { list: true } : {}), ...(only?.emptyList ? { emptyList: true } : {}),
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

/**
 * Empty paragraphs are real blocks. Rendering separates blocks by one blank line and ends with one
 * newline, so the newlines of each gap tell how many empty blocks it holds; they sit at zero-width
 * positions where rendering would have put them. Then callout groups are flattened into members.
 */
function fillEmpties(ctx: Ctx, nodes: ScanNode[], start: number, end: number, inCallout: boolean, base: number): ScanNode[] {
  const { text } = ctx;
  const out: ScanNode[] = [];
  const empty = (at: number): ScanNode => ({ kind: 'block', start: at, end: at, level: 0, base, markdown: inCallout ? '<callout></callout>' : '', ...(inCallout ? { inCallout: true } : {}) });
  // Puts `count` empty blocks after newline number first, first+2, … of text[from, to).
  const place = (from: number, to: number, count: number, first: number) => {
    let seen = 0;
    let want = first;
    let made = 0;
    if (made < count && want === 0) { out.push(empty(from)); made++; want += 2; }
    for (let k = from; k < to && made < count; k++) {
      if (text.charCodeAt(k) !== 10) continue;
      seen++;
      if (seen === want) { out.push(empty(k + 1)); made++; want += 2; }
    }
  };
  const newlines = (from: number, to: number) => {
    let n = 0;
    for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) n++;
    return n;
  };
  if (nodes.length === 0) {
    const n = newlines(start, end);
    place(start, end, (n + 1) >> 1, 0);
    return out;
  }
  let prev = start;
  nodes.forEach((node, idx) => {
    const n = newlines(prev, node.start);
    if (idx === 0) place(prev, node.start, n >> 1, 0);
    else if (n >= 4) place(prev, node.start, (n - 2) >> 1, 2);
    if (node.group) out.push(...node.group);
    else out.push(node);
    prev = node.end;
  });
  const n = newlines(prev, end);
  if (n >= 3) place(prev, end, (n - 1) >> 1, 2);
  if (ctx.strict) checkFirstListItems(ctx, out);
  return out;
}

function checkFirstListItems(ctx: Ctx, nodes: ScanNode[]): void {
  nodes.forEach((n, k) => {
    if (n.emptyList && !nodes[k - 1]?.list) {
      throw dialectError(lineNumberAt(ctx, n.start), 'the first item of a list cannot be empty', 'Write text after the list marker, or remove the empty item');
    }
  });
}
