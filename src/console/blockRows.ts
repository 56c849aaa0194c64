// Two versions of a document side by side, block by block (src/cli/blockDiff: the blocks compared in
// the dialect's canonical form), for the console: a block changed between them is one row with what
// changed inside it word by word, a block only one side has is a row of its own, and long runs of
// blocks both have shrink to a count around one block of context.
import { diffBlocks, fileBlocks, type DiffBlock } from '../cli/blockDiff.js';
import { diffWordsWithSpace } from 'diff';

// What changed inside one block, word by word (jsdiff), for the console's views: the text of the
// newer version cut into runs that stayed, were inserted or were deleted.
export interface Run {
  text: string;
  op: 'same' | 'ins' | 'del';
}

/** Beyond this many edits two texts are shown as one replaced by the other (a diff that long says nothing). */
const MAX_EDITS = 400;

/** The runs from `before` to `after`: what stayed, what `after` inserted, what it deleted of `before`. */
export function inlineDiff(before: string, after: string): Run[] {
  if (before === after) return before === '' ? [] : [{ text: before, op: 'same' }];
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS });
  if (!changes) return [...(before ? [{ text: before, op: 'del' as const }] : []), ...(after ? [{ text: after, op: 'ins' as const }] : [])];
  const runs: Run[] = [];
  for (const c of changes) {
    const op = c.added ? 'ins' : c.removed ? 'del' : 'same';
    const last = runs.at(-1);
    if (last && last.op === op) last.text += c.value;
    else runs.push({ text: c.value, op });
  }
  return runs;
}

export type BlockRow =
  /** Both sides hold this block. */
  | { row: 'same'; kind: DiffBlock['kind']; depth: number; text: string }
  /** A block edited between them: `a` and `b` as they read, `runs` what changed from a to b. */
  | { row: 'changed'; kind: DiffBlock['kind']; depth: number; a: string; b: string; runs: Run[] }
  /** A block only the first text holds. */
  | { row: 'a'; kind: DiffBlock['kind']; depth: number; text: string }
  /** A block only the second text holds. */
  | { row: 'b'; kind: DiffBlock['kind']; depth: number; text: string }
  /** Blocks both hold, not shown. */
  | { row: 'gap'; count: number };

/** How many unchanged blocks stay shown before and after a change. */
export const CONTEXT = 1;

/** The rows from text `a` to text `b` (front matter aside: it is not a block). */
export function blockRows(a: string, b: string): BlockRow[] {
  const lines = diffBlocks(fileBlocks(a), fileBlocks(b));
  const rows: BlockRow[] = [];
  for (let i = 0; i < lines.length;) {
    const l = lines[i]!;
    if (l.op === 'same') {
      rows.push({ row: 'same', kind: l.block.kind, depth: l.block.depth, text: l.block.markdown });
      i++;
      continue;
    }
    // A run of removals then additions: paired in order (an edited block reads as its old and new text).
    const removed: DiffBlock[] = [];
    const added: DiffBlock[] = [];
    while (i < lines.length && lines[i]!.op === 'removed') removed.push(lines[i++]!.block);
    while (i < lines.length && lines[i]!.op === 'added') added.push(lines[i++]!.block);
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) {
      const x = removed[k]!;
      const y = added[k]!;
      rows.push({ row: 'changed', kind: y.kind, depth: y.depth, a: x.markdown, b: y.markdown, runs: inlineDiff(x.markdown, y.markdown) });
    }
    for (const x of removed.slice(paired)) rows.push({ row: 'a', kind: x.kind, depth: x.depth, text: x.markdown });
    for (const y of added.slice(paired)) rows.push({ row: 'b', kind: y.kind, depth: y.depth, text: y.markdown });
  }
  return foldUnchanged(rows);
}

/** Unchanged blocks further than CONTEXT from any change become one `gap` row per run. */
export function foldUnchanged<R extends { row: string }>(rows: readonly R[]): Array<R | { row: 'gap'; count: number }> {
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.row === 'same') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(rows.length - 1, i + CONTEXT); k++) near[k] = true;
  });
  const out: Array<R | { row: 'gap'; count: number }> = [];
  rows.forEach((r, i) => {
    if (r.row !== 'same' || near[i]) {
      out.push(r);
      return;
    }
    const last = out.at(-1);
    if (last && last.row === 'gap') (last as { count: number }).count++;
    else out.push({ row: 'gap', count: 1 });
  });
  return out;
}
