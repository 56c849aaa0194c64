// A push killed after its `POST /blocks` landed and before it was recorded leaves the inserted blocks
// in the space and not in base. The next merge then sees them as the space's own new blocks and the
// file's as new too: at the same place they are taken as one (the merge's twins), but once the file
// moved, edited or deleted the block since, they read as two inserts, and the block was sent again
// (chaos seed 463335517). What that push inserted is what the file and the space last shared: a block
// the space got since base with exactly a text a pending insert sent is taken into base, where the
// space holds it, so the file's later move, edit or delete of it is a plain change of that block.
import { hashBlock } from '../merge/hashBlock.js';
import type { BaseBlock, BlockKind, RemoteBlock } from '../types.js';

/** One block a pending `POST /blocks` sent (nested content included), as the plan built it. */
export interface SentInsert {
  kind: BlockKind;
  markdown: string;
}

/**
 * `sent`: the blocks pending inserts sent; `remote`: the space's blocks now, in document order.
 * Invariant: base's own blocks keep their parent, order and content; a block is taken only under a
 * parent base holds, at most as many of one text as were sent, each after its nearest preceding
 * sibling in the space that base holds.
 */
export function confirmSentInserts(base: readonly BaseBlock[], sent: readonly SentInsert[], remote: readonly RemoteBlock[]): BaseBlock[] {
  if (sent.length === 0) return [...base];
  const left = new Map<string, number>();
  for (const s of sent) left.set(hashBlock(s.markdown, s.kind), (left.get(hashBlock(s.markdown, s.kind)) ?? 0) + 1);
  const held = new Set(base.map((b) => b.id));
  const landed: RemoteBlock[] = [];
  for (const r of remote) {
    if (held.has(r.id) || (r.parentId !== null && !held.has(r.parentId))) continue;
    const k = hashBlock(r.markdown, r.kind);
    const n = left.get(k) ?? 0;
    if (n === 0) continue;
    left.set(k, n - 1);
    landed.push(r);
    held.add(r.id);
  }
  if (landed.length === 0) return [...base];

  const byId = new Map<string, BaseBlock>(base.map((b) => [b.id, b]));
  const kids = new Map<string | null, string[]>();
  const listOf = (parent: string | null) => kids.get(parent) ?? kids.set(parent, []).get(parent)!;
  for (const b of [...base].sort((a, b) => a.position - b.position)) listOf(b.parentId).push(b.id);
  const remoteKids = new Map<string | null, RemoteBlock[]>();
  for (const r of remote) {
    const had = remoteKids.get(r.parentId);
    if (had) had.push(r);
    else remoteKids.set(r.parentId, [r]);
  }
  for (const r of landed) {
    const { readOnly: _r, ...b } = r;
    byId.set(r.id, { ...b, position: 0, hash: hashBlock(r.markdown, r.kind, r.cardLayout) });
    const list = listOf(r.parentId);
    const siblings = remoteKids.get(r.parentId)!;
    let at = 0;
    for (let i = siblings.indexOf(r) - 1; i >= 0; i--) {
      const k = list.indexOf(siblings[i]!.id);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    list.splice(at, 0, r.id);
  }
  const out: BaseBlock[] = [];
  const walk = (parent: string | null) =>
    (kids.get(parent) ?? []).forEach((id, position) => {
      out.push({ ...byId.get(id)!, position });
      walk(id);
    });
  walk(null);
  return out;
}

// A push that went out but could not be recorded (its file was saved again meanwhile, and the merge
// had more to write into it) leaves its intents, and the next cycle merges the document again
// against the base it had before. The blocks that push edited hold, in the space, the text it sent:
// that text, not the old base, is what the file and the space last shared. Taken as the base of
// those blocks, a second edit of one of them is a plain edit, not a conflict with the mirror's own
// write; every other block keeps its base, so an edit the space made that the file never got stays
// the space's.

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
