// A push that went out but could not be recorded (its file was saved again meanwhile, and the merge
// had more to write into it) leaves its intents, and the next cycle merges the document again
// against the base it had before. The blocks that push edited hold, in the space, the text it sent:
// that text, not the old base, is what the file and the space last shared. Taken as the base of
// those blocks, a second edit of one of them is a plain edit, not a conflict with the mirror's own
// write; every other block keeps its base, so an edit the space made that the file never got stays
// the space's.
import { hashBlock } from '../merge/hashBlock.js';
import type { BaseBlock } from '../types.js';

/** `sent`: block id → the markdown a pending `PUT /blocks` sent; `remote`: the space's blocks now, by id. */
export function confirmSentEdits(
  base: readonly BaseBlock[],
  sent: ReadonlyMap<string, string>,
  remote: ReadonlyMap<string, { markdown?: string }>,
): BaseBlock[] {
  if (sent.size === 0) return [...base];
  return base.map((b) => {
    const text = sent.get(b.id);
    const now = remote.get(b.id);
    if (text === undefined || now?.markdown === undefined || b.kind !== 'block') return b;
    // The space holds what was sent (in its canonical form, as hashBlock compares): that edit landed.
    if (hashBlock(now.markdown, b.kind) !== hashBlock(text, b.kind) || hashBlock(now.markdown, b.kind) === b.hash) return b;
    return { ...b, markdown: now.markdown, hash: hashBlock(now.markdown, b.kind) };
  });
}
