// The hash a base block carries: of its canonical markdown, so forms the service normalises hash
// alike; a card's hash also covers its layout (none included), which the journal keeps nowhere else.
import { createHash } from 'node:crypto';
import { canonicalMarkdown } from '../../dialect/index.js';

export function hashBlock(markdown: string, kind = 'block', cardLayout?: string): string {
  const layout = kind === 'card' ? `\u0000layout:${cardLayout ?? ''}` : '';
  return createHash('sha256')
    .update(`${kind}\u0000${canonicalMarkdown(markdown)}${layout}`)
    .digest('hex')
    .slice(0, 32);
}

/**
 * Whether the service's blocks of a document are its base (same blocks, places and content): a
 * listing that says it changed then tells only of a write that changed nothing, this sync's own
 * last one included (the listing cannot tell whose write it was).
 */
export function holdsBase(
  base: ReadonlyArray<{ id: string; parentId: string | null; position: number; hash: string }>,
  remote: ReadonlyArray<{ id: string; parentId: string | null; position: number; kind: string; markdown: string; cardLayout?: string }>,
): boolean {
  return (
    base.length === remote.length &&
    base.every((b, i) => {
      const r = remote[i]!;
      return b.id === r.id && b.parentId === r.parentId && b.position === r.position && b.hash === hashBlock(r.markdown, r.kind, r.cardLayout);
    })
  );
}
