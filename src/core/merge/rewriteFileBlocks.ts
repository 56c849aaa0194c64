// A file rewritten block by block to a new base of the same shape (links to blocks renamed, markers
// added or removed): only the ranges of the blocks that change, every other byte kept.
import { markdownEquals, replaceSegment, segmentFile, type Segment } from '../../dialect/index.js';
import type { BaseBlock } from '../types.js';

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

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
