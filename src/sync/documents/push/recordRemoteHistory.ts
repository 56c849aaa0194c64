// Before the push deletes blocks or overwrites their markdown in the space (which cannot be undone
// through the API), those blocks as the space last held them (markdown, type, position and parent,
// a card's layout, the fields the file does not show, a deleted block's subtree with it, each
// marked edited or deleted) go to the journal's history
// with the document, the time and the request that changes them: `spacesync restore` puts them
// back over the document's base (versionBlocks) and renders that into the file. The blocks the
// push leaves alone are not copied: the base holds them.
import { cardLayoutOf } from '../../../core/merge/cardLayout.js';
import type { HistoryBlock } from '../../../journal/index.js';
import type { DocumentTask } from './PushPlan.js';
import type { SyncContext, SyncSettings } from '../../context/index.js';

const treeSize = (s: { children: readonly unknown[] }): number =>
  1 + s.children.reduce<number>((a, c) => a + treeSize(c as { children: readonly unknown[] }), 0);

/** Whether the task's changes delete or overwrite anything the space holds. */
export function changesRemoteBlocks(t: DocumentTask): boolean {
  return !!t.record && !!t.file && (t.file.changes.edits.length > 0 || t.file.changes.deletes.length > 0);
}

export function recordRemoteHistory(
  ctx: Pick<SyncContext, 'journal' | 'now'> & { settings: Pick<SyncSettings, 'versions'> },
  t: DocumentTask,
  request: string,
): void {
  if (ctx.settings.versions.keepDays <= 0 || !t.record || !t.file) return;
  const cs = t.file.changes;
  const known = t.remote?.blocks ?? t.base;
  const edited = new Set(cs.edits.map((e) => e.id));
  const deleted = new Set(cs.deletes);
  // A block is gone with a deleted ancestor; without deletes (an edit, the common push) no block's
  // ancestry needs looking at, and no map of the document's parents is built.
  const parent = deleted.size === 0 ? null : new Map(known.map((b) => [b.id, b.parentId]));
  const gone = (id: string | null): boolean => parent !== null && id !== null && (deleted.has(id) || gone(parent.get(id) ?? null));
  const blocks: HistoryBlock[] = [];
  for (const b of known) {
    const change = gone(b.id) ? 'deleted' : edited.has(b.id) ? 'edited' : undefined;
    if (!change) continue;
    const layout = cardLayoutOf(b).layout;
    blocks.push({
      id: b.id,
      parentId: b.parentId,
      position: b.position,
      level: b.level,
      kind: b.kind,
      type: b.type,
      markdown: b.markdown,
      // A base block has its card's layout in its hash only.
      ...(layout !== undefined ? { cardLayout: layout } : {}),
      ...(b.unshown !== undefined ? { unshown: b.unshown } : {}),
      change,
    });
  }
  // The size retention weighs is what the journal's encoding of the blocks takes (addHistory).
  ctx.journal.addHistory({
    at: ctx.now().toISOString(),
    side: 'remote',
    docId: t.record.id,
    path: t.local?.path ?? t.record.path,
    cause: 'push',
    request,
    versionFile: null,
    size: 0,
    blocks,
    summary: { added: cs.inserts.reduce((a, r) => a + r.blocks.reduce((b, s) => b + treeSize(s), 0), 0), removed: cs.removedBlocks, edited: cs.edits.length },
  });
}
