// Media URLs are signed anew on every read; a changed signature is not an edit. A block whose
// markdown differs from its base only there keeps the base's markdown, so its bytes in the file
// (and its base) stay as they were.
import { MEDIA_TYPES, sameContent } from '../merge/blockContent.js';
import type { BaseBlock } from '../types.js';
import { markdownEquals, type Block } from '../../dialect/index.js';

export function keepSignedUrls(root: Block, base: readonly BaseBlock[]): Block {
  if (base.length === 0) return root;
  const byId = new Map(base.map((b) => [b.id, b]));
  const visit = (b: Block): Block => {
    let out = b;
    const old = byId.get(b.id);
    if (
      old &&
      MEDIA_TYPES.has(b.type) &&
      b.markdown !== undefined &&
      b.markdown !== old.markdown &&
      old.type === b.type &&
      sameContent(b.type, old.markdown, b.markdown, markdownEquals)
    ) {
      out = { ...b, markdown: old.markdown };
    }
    if (b.content && b.content.length > 0) {
      const content = b.content.map(visit);
      if (content.some((c, i) => c !== b.content![i])) out = { ...out, content };
    }
    return out;
  };
  return visit(root);
}
