// The service's block tree → the flat, pre-order shape the decisions compare with base and local,
// each block's markdown as the file shows it (pages and cards: the title; collections: their table).
import { isPageLike, renderBlockMarkdown, renderCollection, withTaskDates, type Block } from '../../dialect/index.js';
import type { BlockKind, RemoteBlock } from '../types.js';
import { readOnlyReasonOf } from '../merge/readOnlyReason.js';
import { unshownFieldsOf } from '../versions/unshownFields.js';

export function kindOf(b: Pick<Block, 'type' | 'textStyle'>): BlockKind {
  if (b.type === 'collection') return 'readonly';
  if (isPageLike(b)) return b.textStyle === 'card' ? 'card' : 'page';
  return 'block';
}

export function markdownOf(b: Block): string {
  if (b.type === 'collection') return renderCollection(b);
  if (isPageLike(b)) return b.markdown ?? b.title ?? '';
  // A task's dates are part of its line in the file (the dialect's taskDates).
  return withTaskDates(b.markdown ?? renderBlockMarkdown(b), b.taskInfo);
}

/** The blocks under a document's root block, in pre-order; a collection's items stay inside it. */
export function flattenRemote(root: Block): RemoteBlock[] {
  const out: RemoteBlock[] = [];
  const stack: Array<{ b: Block; parentId: string | null; position: number }> = [];
  const push = (children: readonly Block[] | undefined, parentId: string | null) => {
    const list = children ?? [];
    for (let i = list.length - 1; i >= 0; i--) stack.push({ b: list[i]!, parentId, position: i });
  };
  push(root.content, null);
  while (stack.length > 0) {
    const { b, parentId, position } = stack.pop()!;
    const kind = kindOf(b);
    const block: RemoteBlock = { id: b.id, parentId, position, level: b.indentationLevel ?? 0, kind, type: b.type, markdown: markdownOf(b) };
    if (kind === 'card' && b.cardLayout !== undefined) block.cardLayout = b.cardLayout;
    const unshown = unshownFieldsOf(b);
    if (unshown) block.unshown = unshown;
    const readOnly = readOnlyReasonOf(b);
    if (readOnly !== undefined) block.readOnly = readOnly;
    out.push(block);
    if (kind === 'page' || kind === 'card') push(b.content, b.id);
  }
  return out;
}
