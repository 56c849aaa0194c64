// Rewrites only the byte ranges of the blocks that changed, in a file that still holds exactly
// what the daemon last wrote. When the document's shape changed (blocks added, removed, moved,
// a kind changed) or a block cannot be replaced in place, the body is rendered whole instead.
import { sameContent } from '../merge/blockContent.js';
import { cardLayoutOf } from '../merge/cardLayout.js';
import type { BaseBlock, RemoteBlock } from '../types.js';
import { markdownEquals, renderFileBody, replaceSegment, segmentFile, type Block, type Segment } from '../../dialect/index.js';
import { frontMatterParts } from '../files/fileText.js';

/** Above this many changed blocks the body is rendered whole. */
export const MAX_SPLICES = 32;

const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** A card's layout lives in its wrapper's attribute, which a splice of the title does not rewrite (unknown: not the same). */
function sameLayout(b: BaseBlock, r: RemoteBlock): boolean {
  if (b.kind !== 'card') return true;
  const was = cardLayoutOf(b);
  return was.known && was.layout === r.cardLayout;
}

function sameShape(base: readonly BaseBlock[], remote: readonly RemoteBlock[]): boolean {
  if (base.length !== remote.length) return false;
  return base.every((b, i) => {
    const r = remote[i]!;
    return (
      b.id === r.id &&
      b.parentId === r.parentId &&
      b.position === r.position &&
      b.kind === r.kind &&
      b.level === r.level &&
      b.type === r.type &&
      sameLayout(b, r)
    );
  });
}

export interface Splice {
  text: string;
  /** How the body was updated: blocks replaced in place, or rendered whole. */
  mode: 'splice' | 'render';
  /** Blocks whose content changed. */
  changed: number;
}

/** `text` (front matter kept as it is) with its body updated from `base` to `remote`. */
export function spliceFile(text: string, base: readonly BaseBlock[], remote: readonly RemoteBlock[], root: Block): Splice {
  const changed = remote.filter((r, i) => !(base[i] && base[i]!.id === r.id && sameContent(r.type, base[i]!.markdown, r.markdown, markdownEquals))).length;
  const render = (): Splice => {
    const start = frontMatterParts(text)?.end ?? 0;
    return { text: text.slice(0, start) + renderFileBody(root.content ?? []), mode: 'render', changed };
  };
  if (!sameShape(base, remote)) return render();
  const segments = flatten(segmentFile(text).segments);
  if (segments.length !== base.length || segments.some((s, i) => s.kind !== base[i]!.kind)) return render();
  // Each replacement re-cuts the file (a page's range grows with its children); past a few
  // dozen changed blocks rendering the body once is cheaper and gives the same blocks.
  if (changed > MAX_SPLICES) return render();
  let out = text;
  let current = segments;
  for (let i = 0; i < remote.length; i++) {
    const before = base[i]!;
    const after = remote[i]!;
    if (sameContent(after.type, before.markdown, after.markdown, markdownEquals)) continue;
    const seg = current[i];
    const next = seg ? replaceSegment(out, seg, after.markdown) : null;
    if (next === null) return render();
    out = next;
    current = flatten(segmentFile(out).segments);
    if (current.length !== base.length) return render();
  }
  return { text: out, mode: 'splice', changed };
}
