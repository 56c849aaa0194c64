// A conflict as three versions side by side, block by block: the base (what both sides started
// from, kept in the conflict's record for the blocks both sides changed), the space's (in the
// document's file) and yours (in the copy). Each changed block shows, word by word, what each side
// did to the base; where the record keeps no base, yours shows what it changed of the space's.
import { canonicalMarkdown } from '../dialect/index.js';
import { blockRows, inlineDiff, type Run } from './blockRows.js';

export type ThreeWayRow =
  | { row: 'same'; kind: string; depth: number; text: string }
  | { row: 'gap'; count: number }
  /** A block both versions hold, differently: `conflict` when both sides changed it from the base. */
  | { row: 'changed'; kind: string; depth: number; base: string | null; space: Run[]; mine: Run[]; conflict: boolean }
  /** A block only the space's version (`space`) or only yours (`mine`) holds. */
  | { row: 'space' | 'mine'; kind: string; depth: number; text: string };

/** A block both sides changed, as the conflict's record keeps it (src/core/merge: BlockConflict). */
export interface RecordedBlock {
  base: string;
  local: string;
  remote: string;
}

/** The blocks a conflict record's details name with their three texts (older records name only ids). */
export function recordedBlocks(details: unknown): RecordedBlock[] {
  const blocks = (details as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks)) return [];
  return blocks.filter(
    (b): b is RecordedBlock => !!b && typeof b === 'object' && ['base', 'local', 'remote'].every((k) => typeof (b as Record<string, unknown>)[k] === 'string'),
  );
}

const same = (x: string, y: string) => x === y || canonicalMarkdown(x) === canonicalMarkdown(y);

/** The rows from the space's text (the document's file) to yours (the copy), with the base where the record has it. */
export function threeWay(spaceText: string, mineText: string, recorded: readonly RecordedBlock[]): ThreeWayRow[] {
  return blockRows(spaceText, mineText).map((r): ThreeWayRow => {
    if (r.row === 'gap' || r.row === 'same') return r;
    if (r.row === 'a') return { row: 'space', kind: r.kind, depth: r.depth, text: r.text };
    if (r.row === 'b') return { row: 'mine', kind: r.kind, depth: r.depth, text: r.text };
    const rec =
      recorded.find((b) => same(b.remote, r.a) && same(b.local, r.b)) ?? recorded.find((b) => same(b.remote, r.a)) ?? recorded.find((b) => same(b.local, r.b));
    if (!rec) return { row: 'changed', kind: r.kind, depth: r.depth, base: null, space: [{ text: r.a, op: 'same' }], mine: r.runs, conflict: false };
    return { row: 'changed', kind: r.kind, depth: r.depth, base: rec.base, space: inlineDiff(rec.base, r.a), mine: inlineDiff(rec.base, r.b), conflict: true };
  });
}
