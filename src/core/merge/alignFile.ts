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
