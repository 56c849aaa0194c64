// Documents moved or renamed (on either side): the relative links that point to them, in the files
// of the documents that hold them, and the links of a moved document itself (relative to its own
// folder), are rewritten to the new paths, in the file and in base alike. Only the file's form
// changes: the space's `block://` links stay what they were, so nothing is sent for it.
import { markdownEquals, segmentFile, type Segment } from '../../dialect/index.js';
import { hashBlock } from '../merge/hashBlock.js';
import { holdsDocumentLinks, relinkMarkdown } from './linkDocuments.js';
import type { BaseBlock } from '../types.js';

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** The base of a document (its links written from `from`) with the links relinked for the file now at `to`; the same array when nothing changes. */
export function relinkBase(
  base: readonly BaseBlock[],
  from: string,
  to: string,
  moved: ReadonlyMap<string, string>,
  isDocument?: (path: string) => boolean,
): readonly BaseBlock[] {
  let changed = false;
  const next = base.map((b) => {
    if (b.kind !== 'block' || !holdsDocumentLinks(b.type)) return b;
    const markdown = relinkMarkdown(b.markdown, from, moved, to, isDocument);
    if (markdown === b.markdown) return b;
    changed = true;
    return { ...b, markdown, hash: hashBlock(markdown, b.kind, b.cardLayout) };
  });
  return changed ? next : base;
}

/**
 * The file `text` (holding `base`, block by block, canonically) with the blocks that `next` relinks
 * rewritten in place, every other byte kept; null when the file does not hold `base` or the
 * rewritten file would not read back as `next`.
 */
export function relinkFile(
  text: string,
  base: readonly BaseBlock[],
  next: readonly BaseBlock[],
  from: string,
  to: string,
  moved: ReadonlyMap<string, string>,
  isDocument?: (path: string) => boolean,
): string | null {
  const segs = flatten(segmentFile(text).segments);
  // Block by block as base holds it, canonically: a block the pull recorded in the service's form
  // (an uploaded image's `![Image](…)` beside the file's `![](…)`) is the same block.
  if (segs.length !== base.length || segs.some((s, i) => s.kind !== base[i]!.kind || !markdownEquals(s.markdown, base[i]!.markdown))) return null;
  let out = '';
  let at = 0;
  for (let i = 0; i < segs.length; i++) {
    if (next[i] === base[i]) continue;
    const s = segs[i]!;
    out += text.slice(at, s.start) + relinkMarkdown(s.text, from, moved, to, isDocument);
    at = s.end;
  }
  out += text.slice(at);
  const again = flatten(segmentFile(out).segments);
  if (again.length !== next.length || again.some((s, i) => !markdownEquals(s.markdown, next[i]!.markdown))) return null;
  return out;
}
