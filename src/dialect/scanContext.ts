// The scanner's shared state and helpers: the file's lines, lookup tables built once, limits.
import { dedent, leading, type Line } from './lines.js';
import { SpacesyncError } from '../errors.js';

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

export interface Ctx {
  text: string;
  lines: Line[];
  strict: boolean;
  firstItemRule: boolean;
  /** Count of lines closing a page/card at index >= i: unclosed wrappers fail fast. */
  wrapperClosers: Int32Array;
  /** The line closing the collection opened at line i, or -1 (bracket matching over the file). */
  collectionEnd: Int32Array;
  /** Wrapper attempts that failed, by line and base indentation: each is tried once. */
  failed: Set<number>;
  /** Lines wrapper attempts may still read; pathological nesting then reads as text, in linear time. */
  budget: number;
  /** Per line array: the first line at index >= i ending with `$$` (resp. `</callout>`), or -1. */
  next: Map<Line[], { math: Int32Array; callout: Int32Array }>;
  /** scanRegion, passed in so that the wrapper and callout scanners recurse without importing it. */
  scanRegion: (ctx: Ctx, r: Region) => RegionScan;
}

/** What scanning one region found. */
export interface RegionScan {
  nodes: ScanNode[];
  next: number;
  closed: boolean;
  end: number;
}

/** Wrappers nest at most this deep; deeper ones are read as text, which keeps the scanner linear. */
export const MAX_DEPTH = 24;

export interface Region {
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

export const trimmedRest = (text: string, l: Line): string => text.slice(leading(text, l.s, l.e).p, l.e).trimEnd();

export function nextOf(ctx: Ctx, L: Line[]): { math: Int32Array; callout: Int32Array } {
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

export function leaf(text: string, start: number, end: number, level: number, base: number): ScanNode {
  return { kind: 'block', start, end, level, base, markdown: dedent(text.slice(start, end), base) };
}

// The typed error for markdown the service would refuse, naming the line.
export function dialectError(line: number, problem: string, fix: string): SpacesyncError {
  return new SpacesyncError('dialect_input', `Markdown line ${line}: ${problem}. ${fix}`, { details: { line } });
}
