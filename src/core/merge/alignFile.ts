// After a push the service's answer is the base. Where it normalised a block beyond what canonical
// equality forgives, the file's range of that block is rewritten to the service's markdown, so the
// file says what the service holds and the next cycle sees nothing to send.
import { sameContent } from './blockContent.js';
import type { BaseBlock } from '../types.js';
import { readOnlyReason } from './readOnlyReason.js';
import { markdownEquals, replaceSegment, segmentFile, type Segment } from '../../dialect/index.js';

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

export interface Alignment {
  text: string;
  /** The file's blocks are exactly the base's, block for block (canonically). */
  aligned: boolean;
}

export function alignFile(text: string, base: readonly BaseBlock[], readOnly?: ReadonlyMap<string, string>): Alignment {
  let segs = flatten(segmentFile(text).segments);
  if (segs.length !== base.length || segs.some((s, i) => s.kind !== base[i]!.kind)) return { text, aligned: false };
  let out = text;
  for (let i = 0; i < base.length; i++) {
    const b = base[i]!;
    if (sameContent(b.type, segs[i]!.markdown, b.markdown, markdownEquals)) continue;
    // A held edit of output-only or read-only content stays in the file, which then stays pending.
    if (b.kind === 'readonly' || readOnlyReason(b, readOnly) !== undefined) return { text: out, aligned: false };
    const next = replaceSegment(out, segs[i]!, b.markdown);
    if (next === null) return { text: out, aligned: false };
    out = next;
    segs = flatten(segmentFile(out).segments);
  }
  return { text: out, aligned: true };
}

// A file rewritten block by block to a new base of the same shape (links to blocks renamed, markers
// added or removed): only the ranges of the blocks that change, every other byte kept.

/**
 * The file `text` (holding `base`, block by block, canonically) with each block whose markdown `next`
 * changes rewritten in its own range; null when the file does not hold `base` as recorded or a block
 * cannot be rewritten in place.
 */
export function rewriteFileBlocks(text: string, base: readonly BaseBlock[], next: readonly BaseBlock[]): string | null {
  let segs = flatten(segmentFile(text).segments);
  // Canonically: a block the pull recorded in the service's form is the file's block all the same.
  if (
    next.length !== base.length ||
    segs.length !== base.length ||
    segs.some((s, i) => s.kind !== base[i]!.kind || !markdownEquals(s.markdown, base[i]!.markdown))
  )
    return null;
  let out = text;
  for (let i = 0; i < base.length; i++) {
    if (next[i]!.markdown === base[i]!.markdown) continue;
    const replaced = replaceSegment(out, segs[i]!, next[i]!.markdown);
    if (replaced === null) return null;
    out = replaced;
    segs = flatten(segmentFile(out).segments);
    if (segs.length !== base.length) return null;
  }
  return out;
}
