// The dialect's line scanner: cuts markdown into blocks by the service's own rules (blank line
// between paragraphs, one line per list item, two spaces per level, page/card/callout wrappers).
// One pass over the lines, no markdown library: CommonMark reads two-space nesting differently.
import { dedent, leading, levelOf, makeLines, skipColumns, type Line } from './lines.js';
import { COLLECTION_OPEN, FENCE, isDelimiterRow, lineKind, type LineKind } from './lineKind.js';
import { dialectError, leaf, lineNumberAt, MAX_DEPTH, nextOf, trimmedRest, type Ctx, type Region, type RegionScan, type ScanNode } from './scanContext.js';
import { scanWrapper } from './scanWrapper.js';
import { scanCallout } from './scanCallout.js';
import { fillEmpties } from './fillEmpties.js';

export type { ScanNode } from './scanContext.js';
export { lineNumberAt } from './scanContext.js';

/**
 * Scans `text` from `from` on (a file body or an insert). Strict mode throws dialect_input for
 * refused input; `firstItemRule` refuses an empty first list item (an insert rule, not a block rule).
 */
export function scanBlocks(text: string, strict: boolean, from = 0, firstItemRule = strict): ScanNode[] {
  const lines = makeLines(text, from);
  const wrapperClosers = new Int32Array(lines.length + 1);
  const collectionEnd = new Int32Array(lines.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const lp = leading(text, l.s, l.e).p;
    if (text.charCodeAt(lp) !== 60) continue;
    const t = text.slice(lp, l.e).trimEnd();
    if (t === '</page>' || t === '</card>') wrapperClosers[i] = 1;
    else if (t === '</collection>') {
      const o = open.pop();
      if (o !== undefined) collectionEnd[o] = i;
    } else if (COLLECTION_OPEN.test(t)) open.push(i);
  }
  for (let i = lines.length - 1; i >= 0; i--) wrapperClosers[i]! += wrapperClosers[i + 1]!;
  const ctx: Ctx = {
    text,
    lines,
    strict,
    firstItemRule,
    wrapperClosers,
    collectionEnd,
    failed: new Set(),
    next: new Map(),
    budget: 32 * lines.length + 10_000,
    scanRegion,
  };
  const res = scanRegion(ctx, { lines, depth: 0, from: 0, base: 0, stopAtContent: false, inCallout: false, start: from, end: text.length });
  return res.nodes;
}

/** A region being scanned: its nodes so far and the paragraph, list item or quote being read. */
interface RegionState {
  ctx: Ctx;
  r: Region;
  nodes: ScanNode[];
  // The open block: its first line, last line, flags.
  cur: { first: number; last: number; list: boolean; quote: boolean; q: number; level: number; emptyList: boolean } | null;
}

// One region's lines (a file body, a wrapper's content, a callout's inside) cut into blocks, in one pass.
export function scanRegion(ctx: Ctx, r: Region): RegionScan {
  const { text } = ctx;
  const L = r.lines;
  const s: RegionState = { ctx, r, nodes: [], cur: null };
  let i = r.from;
  for (; i < L.length; i++) {
    const line = L[i]!;
    if (r.depth > 0) ctx.budget--;
    const q = skipColumns(text, line.s, line.e, r.base);
    const { p, cols } = leading(text, q, line.e);
    if (p >= line.e) {
      flush(s);
      continue;
    }
    const rest = text.slice(p, line.e);
    if (r.stopAtContent && rest.trimEnd() === '</content>') {
      flush(s);
      return { nodes: fillEmpties(ctx, s.nodes, r.start, line.s, r.inCallout, r.base), next: i, closed: true, end: line.s };
    }
    const kind = lineKind(rest);
    const last = leafAt(s, i, q, p, cols, rest, kind);
    if (last >= 0) i = last;
    // A list item starts a block of its own, a quote line continues only a quote; anything else
    // continues the open block or starts a paragraph.
    else if (s.cur && kind !== 'list' && (kind !== 'quote' || s.cur.quote)) s.cur.last = i;
    else {
      flush(s);
      const list = kind === 'list';
      s.cur = { first: i, last: i, list, quote: kind === 'quote', q, level: levelOf(cols), emptyList: list && EMPTY_ITEM.test(rest) };
    }
  }
  flush(s);
  return { nodes: fillEmpties(ctx, s.nodes, r.start, r.end, r.inCallout, r.base), next: i, closed: false, end: r.end };
}

const EMPTY_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX-]\])?[ \t]*$/;

// The blocks read whole from their first line (a table, a fence, math, a wrapper, a collection, a
// callout, one line): the last line of the one added, or -1 when the line opens or continues a
// paragraph, list item or quote.
function leafAt(s: RegionState, i: number, q: number, p: number, cols: number, rest: string, kind: LineKind): number {
  const { ctx, r } = s;
  const { text, strict } = ctx;
  const L = r.lines;
  const level = levelOf(cols);
  if (kind === 'text' && rest.includes('|') && i + 1 < L.length) {
    const k = tableEnd(ctx, L, i, r.base);
    if (k >= 0) return add(s, q, level, k);
  }
  if (strict && kind === 'text' && (/^<content>\s*$/.test(rest) || rest.startsWith('<pageTitle>'))) {
    throw dialectError(
      lineNumberAt(ctx, p),
      `"${rest.trim().slice(0, 40)}" is outside a <page> or <card>`,
      'Put <pageTitle> and <content> right inside a <page>…</page> or <card>…</card> wrapper',
    );
  }
  if (r.inCallout && (kind === 'wrapper' || kind === 'callout' || kind === 'collection')) kind = 'text';
  switch (kind) {
    case 'fence': {
      const m = FENCE.exec(rest)!;
      const run = m[1] ?? m[3] ?? '```';
      const close = new RegExp(`^${run[0] === '`' ? '`' : '~'}{${run.length},}[ \\t]*$`);
      let k = i + 1;
      while (k < L.length && !close.test(trimmedRest(text, L[k]!))) k++;
      return add(s, q, level, Math.min(k, L.length - 1));
    }
    case 'math': {
      const t = rest.trimEnd();
      const k = t.length >= 4 && t.endsWith('$$') && t !== '$$' ? i : nextOf(ctx, L).math[i + 1]!;
      return k >= 0 ? add(s, q, level, k) : -1;
    }
    case 'wrapper': {
      const key = (L === ctx.lines ? i : L[i]!.s) * 1024 + Math.min(r.base, 1023);
      const tryIt = r.depth < MAX_DEPTH && ctx.budget > 0 && L === ctx.lines && ctx.wrapperClosers[i + 1]! > 0 && !ctx.failed.has(key);
      const w = tryIt ? scanWrapper(ctx, r, i, q, cols, rest) : null;
      if (tryIt && !w) ctx.failed.add(key);
      if (w) return add(s, q, level, w.last, w.node);
      if (strict)
        throw dialectError(
          lineNumberAt(ctx, p),
          `the ${rest.trim().slice(0, 40)} wrapper is not closed or not well formed`,
          'Write <pageTitle>…</pageTitle>, then <content>, the blocks, </content>, and the closing tag, each on its own line',
        );
      return -1;
    }
    case 'collection': {
      if (strict) throw outputOnly(ctx, p, rest);
      const k = L === ctx.lines ? ctx.collectionEnd[i]! : -1;
      return k >= 0 ? add(s, q, level, k, { ...leaf(text, q, L[k]!.e, level, r.base), kind: 'readonly' }) : -1;
    }
    case 'callout': {
      const c = scanCallout(ctx, r, i, q, p, level);
      if (c) return add(s, q, level, c.last, c.node);
      if (strict) throw dialectError(lineNumberAt(ctx, p), '<callout> is never closed', 'Close it with </callout>');
      return -1;
    }
    case 'close':
      if (strict) throw dialectError(lineNumberAt(ctx, p), `${rest.trim()} closes nothing that is open`, 'Remove it or add the opening tag');
      return -1;
    case 'line':
    case 'heading':
      return add(s, q, level, i);
    default:
      return -1;
  }
}

// A table: a line with a pipe over a delimiter row, then the lines with a pipe. Its last line, or
// -1 when the next line is no delimiter row.
function tableEnd(ctx: Ctx, L: Line[], i: number, base: number): number {
  const { text } = ctx;
  const nl = L[i + 1]!;
  const nq = skipColumns(text, nl.s, nl.e, base);
  if (!isDelimiterRow(text.slice(leading(text, nq, nl.e).p, nl.e))) return -1;
  let k = i + 2;
  for (; k < L.length; k++) {
    const kl = L[k]!;
    const kp = leading(text, kl.s, kl.e).p;
    if (kp >= kl.e || !text.slice(kp, kl.e).includes('|') || lineKind(text.slice(kp, kl.e)) !== 'text') break;
  }
  return k - 1;
}

// A block read whole ends the open one. It runs from `q` to the end of line `last`, unless its own
// scanner read it (`node`); the scan goes on after `last`.
function add(s: RegionState, q: number, level: number, last: number, node?: ScanNode): number {
  flush(s);
  s.nodes.push(node ?? leaf(s.ctx.text, q, s.r.lines[last]!.e, level, s.r.base));
  return last;
}

// The open paragraph, list item or quote becomes a node.
function flush(s: RegionState): void {
  const { cur, r } = s;
  if (!cur) return;
  const end = r.lines[cur.last]!.e;
  const single = cur.first === cur.last;
  s.nodes.push({
    kind: 'block',
    start: cur.q,
    end,
    level: cur.level,
    base: r.base,
    markdown: dedent(s.ctx.text.slice(cur.q, end), r.base),
    ...(cur.list ? { list: true } : {}),
    ...(cur.emptyList && single ? { emptyList: true } : {}),
  });
  s.cur = null;
}

function outputOnly(ctx: Ctx, p: number, rest: string) {
  return dialectError(
    lineNumberAt(ctx, p),
    `${rest.trim().slice(0, 40)} is an output-only collection tag`,
    'Collections cannot be written as markdown; create them with POST /collections',
  );
}
