// Puts a document's base blocks in document order (pre-order: a parent before its children,
// siblings by position) and checks they form one tree, so the journal never stores a broken one.
import type { BaseBlock } from './types.js';

/**
 * Returns the blocks in document order. Throws when an id repeats, a parent is missing, two
 * siblings share a position, or a block is not reachable from the document root (a cycle):
 * those are defects of the caller, never states to record.
 */
export function orderBlocks(docId: string, blocks: readonly BaseBlock[]): BaseBlock[] {
  const byId = new Map<string, BaseBlock>();
  const children = new Map<string | null, BaseBlock[]>();
  for (const b of blocks) {
    if (byId.has(b.id)) throw new Error(`Base blocks of document ${docId}: block ${b.id} appears twice.`);
    byId.set(b.id, b);
  }
  for (const b of blocks) {
    if (b.parentId !== null && !byId.has(b.parentId)) {
      throw new Error(`Base blocks of document ${docId}: block ${b.id} names parent ${b.parentId}, which is not among the blocks.`);
    }
    const siblings = children.get(b.parentId);
    if (siblings) siblings.push(b);
    else children.set(b.parentId, [b]);
  }
  for (const [parent, siblings] of children) {
    siblings.sort((x, y) => x.position - y.position);
    for (let i = 1; i < siblings.length; i++) {
      if (siblings[i]!.position === siblings[i - 1]!.position) {
        throw new Error(
          `Base blocks of document ${docId}: blocks ${siblings[i - 1]!.id} and ${siblings[i]!.id} share position ${siblings[i]!.position} under ${parent ?? 'the document root'}.`,
        );
      }
    }
  }
  const out: BaseBlock[] = [];
  // Iterative pre-order walk: deep nesting must not overflow the stack.
  const stack: BaseBlock[] = [...(children.get(null) ?? [])].reverse();
  while (stack.length > 0) {
    const b = stack.pop()!;
    out.push(b);
    const kids = children.get(b.id);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  if (out.length !== blocks.length) {
    const reached = new Set(out.map((b) => b.id));
    const lost = blocks.filter((b) => !reached.has(b.id)).map((b) => b.id);
    throw new Error(`Base blocks of document ${docId}: blocks ${lost.join(', ')} are not reachable from the document root (a parent cycle).`);
  }
  return out;
}
