// The dialect's line scanner: cuts markdown into blocks by the service's own rules (blank line
// between paragraphs, one line per list item, two spaces per level, page/card/callout wrappers).
// One pass over the lines, no markdown library: CommonMark reads two-space nesting differently.
import { dedent, leading, levelOf, makeLines, skipColumns } from './lines.js';
import { COLLECTION_OPEN, FENCE, isDelimiterRow, lineKind } from './lineKind.js';
import { dialectError } from './dialectError.js';
import { leaf, lineNumberAt, MAX_DEPTH, nextOf, trimmedRest, type Ctx, type Region, type RegionScan, type ScanNode } from './scanContext.js';
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

export function scanRegion(ctx: Ctx, r: Region): RegionScan {
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
      kind: 'block',
      start: cur.q,
      end,
      level: cur.level,
      base: r.base,
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
    if (p >= line.e) {
      flush();
      continue;
    }
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
      throw dialectError(
        lineNumberAt(ctx, p),
        `"${rest.trim().slice(0, 40)}" is outside a <page> or <card>`,
        'Put <pageTitle> and <content> right inside a <page>…</page> or <card>…</card> wrapper',
      );
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
        if (strict)
          throw dialectError(
            lineNumberAt(ctx, p),
            `the ${rest.trim().slice(0, 40)} wrapper is not closed or not well formed`,
            'Write <pageTitle>…</pageTitle>, then <content>, the blocks, </content>, and the closing tag, each on its own line',
          );
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
        if (strict) throw dialectError(lineNumberAt(ctx, p), '<callout> is never closed', 'Close it with </callout>');
        break;
      }
      case 'close':
        if (strict) throw dialectError(lineNumberAt(ctx, p), `${rest.trim()} closes nothing that is open`, 'Remove it or add the opening tag');
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
        if (cur?.quote) {
          cur.last = i;
          continue;
        }
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

function outputOnly(ctx: Ctx, p: number, rest: string) {
  return dialectError(
    lineNumberAt(ctx, p),
    `${rest.trim().slice(0, 40)} is an output-only collection tag`,
    'Collections cannot be written as markdown; create them with POST /collections',
  );
}
