// The blocks that differ between two versions of a document file (a conflict copy and the file),
// compared block by block in the dialect's canonical form, so forms the service normalises
// (`_x_`/`*x*`, trailing spaces) are not shown as differences.
import { canonicalMarkdown, segmentFile, type Segment } from '../dialect/index.js';

export interface DiffBlock {
  /** The block's markdown as the file states it (a page or card: its title). */
  markdown: string;
  kind: Segment['kind'];
  /** Nesting in page/card wrappers. */
  depth: number;
}

export interface DiffLine {
  /** `removed`: only in the first text; `added`: only in the second. */
  op: 'same' | 'removed' | 'added';
  block: DiffBlock;
}

/** A file's blocks in reading order, children of pages and cards after their wrapper. */
export function fileBlocks(text: string): DiffBlock[] {
  const out: DiffBlock[] = [];
  const walk = (segs: readonly Segment[]) => {
    for (const s of segs) {
      out.push({ markdown: s.markdown, kind: s.kind, depth: s.depth });
      walk(s.children);
    }
  };
  walk(segmentFile(text).segments);
  return out;
}

/** Above this many cells the middle of two very different files is shown as replaced whole. */
const MAX_CELLS = 4_000_000;

/** The edit script from `a` to `b`: blocks only in `a` are removed, only in `b` added (a longest common subsequence). */
export function diffBlocks(a: readonly DiffBlock[], b: readonly DiffBlock[]): DiffLine[] {
  const key = (x: DiffBlock) => `${x.kind}\u0000${x.depth}\u0000${canonicalMarkdown(x.markdown)}`;
  const ka = a.map(key);
  const kb = b.map(key);
  let start = 0;
  while (start < ka.length && start < kb.length && ka[start] === kb[start]) start++;
  let endA = ka.length;
  let endB = kb.length;
  while (endA > start && endB > start && ka[endA - 1] === kb[endB - 1]) {
    endA--;
    endB--;
  }
  const head: DiffLine[] = a.slice(0, start).map((block) => ({ op: 'same', block }));
  const tail: DiffLine[] = a.slice(endA).map((block) => ({ op: 'same', block }));
  const n = endA - start;
  const m = endB - start;
  const middle: DiffLine[] = [];
  if (n * m > MAX_CELLS) {
    for (let i = start; i < endA; i++) middle.push({ op: 'removed', block: a[i]! });
    for (let j = start; j < endB; j++) middle.push({ op: 'added', block: b[j]! });
    return [...head, ...middle, ...tail];
  }
  // lcs[i][j]: the common subsequence length of a[start+i..endA) and b[start+j..endB).
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = ka[start + i] === kb[start + j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && ka[start + i] === kb[start + j]) {
      middle.push({ op: 'same', block: a[start + i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Removals before additions: a changed block reads as its old line, then its new one.
      middle.push({ op: 'removed', block: a[start + i]! });
      i++;
    } else {
      middle.push({ op: 'added', block: b[start + j]! });
      j++;
    }
  }
  return [...head, ...middle, ...tail];
}

/** One block as one short line: its first line, cut at `width` characters. */
export function blockLine(block: DiffBlock, width = 100): string {
  const first = block.markdown.split('\n')[0] ?? '';
  const more = block.markdown.includes('\n') || first.length > width;
  const label = block.kind === 'page' || block.kind === 'card' ? `<${block.kind}> ${first}` : first;
  const shown = label.length > width ? label.slice(0, width) : label;
  return `${'  '.repeat(block.depth)}${shown === '' ? '(empty block)' : shown}${more ? ' …' : ''}`;
}

/**
 * The differing blocks with one block of context before each run, `-` for the first text's blocks,
 * `+` for the second's; at most `max` lines, then how many more differ.
 */
export function formatDiff(lines: readonly DiffLine[], max = 12): string[] {
  const out: string[] = [];
  let shown = 0;
  let hidden = 0;
  lines.forEach((l, idx) => {
    if (l.op === 'same') return;
    if (shown >= max) {
      hidden++;
      return;
    }
    const prev = lines[idx - 1];
    if (prev?.op === 'same') out.push(`  ${blockLine(prev.block)}`);
    out.push(`${l.op === 'removed' ? '-' : '+'} ${blockLine(l.block)}`);
    shown++;
  });
  if (hidden > 0) out.push(`  … and ${hidden} more differing block${hidden === 1 ? '' : 's'}`);
  return out;
}
