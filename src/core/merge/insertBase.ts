// Where a block a request put into the space goes in the base: right after a sibling (after that
// sibling's whole subtree, in the base's pre-order), or first under its parent; the siblings after
// it move down one place. Used for an upload, whose answer names only the new block.
import type { BaseBlock } from '../types.js';

/** `base` with `block` inserted after the sibling `after` (its whole subtree), or first under its parent. */
export function insertBase(base: readonly BaseBlock[], block: Omit<BaseBlock, 'position' | 'level'>, after: string | null): BaseBlock[] {
  const siblings = base.filter((b) => b.parentId === block.parentId);
  const prev = after === null ? undefined : siblings.find((b) => b.id === after);
  const position = prev ? prev.position + 1 : 0;
  const parent = block.parentId === null ? undefined : base.find((b) => b.id === block.parentId);
  const level = prev?.level ?? siblings[0]?.level ?? (parent ? parent.level + 1 : 0);
  let at: number;
  if (prev) {
    // After the sibling and its descendants (pre-order).
    const inside = new Set([prev.id]);
    at = base.indexOf(prev) + 1;
    while (at < base.length && base[at]!.parentId !== null && inside.has(base[at]!.parentId!)) inside.add(base[at++]!.id);
  } else at = parent ? base.indexOf(parent) + 1 : 0;
  const shifted = base.map((b) => (b.parentId === block.parentId && b.position >= position ? { ...b, position: b.position + 1 } : b));
  return [...shifted.slice(0, at), { ...block, position, level }, ...shifted.slice(at)];
}
