// The marker ` ^<short id>` on each block of a document's base that a file links to by it (`anchorOf`
// says so), as a pull shows it: the base a push records from the service's answers (which never hold
// markers) says what the file says.
import { withMarker } from '../../dialect/index.js';
import { cardLayoutOf } from '../merge/cardLayout.js';
import { carriesMarker } from './carriesMarker.js';
import { hashBlock } from '../merge/hashBlock.js';
import type { Anchor } from './linkDocuments.js';
import type { BaseBlock } from '../types.js';

/** `base` with the markers its anchored blocks carry; the same array when none is missing. */
export function markAnchors(base: readonly BaseBlock[], anchorOf: (id: string) => Anchor | undefined): readonly BaseBlock[] {
  let changed = false;
  const out = base.map((b) => {
    const fragment = anchorOf(b.id)?.fragment;
    if (!fragment?.startsWith('^') || !carriesMarker(b.kind, b.type, b.markdown)) return b;
    const markdown = withMarker(b.markdown, fragment.slice(1));
    if (markdown === b.markdown) return b;
    changed = true;
    return { ...b, markdown, hash: hashBlock(markdown, b.kind, cardLayoutOf(b).layout) };
  });
  return changed ? out : base;
}
