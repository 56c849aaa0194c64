// The blocks a remote version stands for. Since the journal's schema 4 a remote version keeps only
// the blocks the push overwrote or deleted (each marked, a deleted block's subtree with it), so it
// is read over the document's base as the journal holds it now: overwritten blocks get their old
// markdown and type back, deleted ones go back under their parent at their position, every other
// block stays as it is (with its card layout and the fields the file does not show). A version recorded before (the whole document, unchanged blocks unmarked)
// is already whole.
import { cardLayoutOf } from '../../core/merge/cardLayout.js';
import type { BaseBlock, HistoryBlock } from '../../journal/index.js';

export function versionBlocks(recorded: readonly HistoryBlock[], base: readonly BaseBlock[]): HistoryBlock[] {
  if (recorded.some((b) => b.change === undefined)) return [...recorded];
  const old = new Map(recorded.map((b) => [b.id, b]));
  const blocks = new Map<string, HistoryBlock>();
  for (const b of base) {
    const before = old.get(b.id);
    // A base block's card layout is in its hash; an edit sent the markdown only, so the fields the file does not show are the base's.
    const layout = before?.cardLayout ?? cardLayoutOf(b).layout;
    const unshown = before?.unshown ?? b.unshown;
    blocks.set(b.id, {
      id: b.id,
      parentId: b.parentId,
      position: b.position,
      level: b.level,
      kind: b.kind,
      type: b.type,
      markdown: b.markdown,
      ...(layout !== undefined ? { cardLayout: layout } : {}),
      ...(unshown !== undefined ? { unshown } : {}),
      ...(before ? { type: before.type, markdown: before.markdown, change: before.change } : {}),
    });
  }
  // Blocks no longer in the base come back at their recorded place; a parent gone too puts them at the root.
  const back = recorded.filter((b) => !blocks.has(b.id));
  for (const b of back) blocks.set(b.id, { ...b });
  for (const b of back) if (b.parentId !== null && !blocks.has(b.parentId)) blocks.set(b.id, { ...b, parentId: null, level: 0 });
  // Siblings in order: the base's among themselves, each block brought back at its recorded index.
  const children = new Map<string | null, HistoryBlock[]>();
  const returning = new Set(back.map((b) => b.id));
  for (const b of blocks.values()) {
    const had = children.get(b.parentId);
    if (had) had.push(b);
    else children.set(b.parentId, [b]);
  }
  const out: HistoryBlock[] = [];
  for (const siblings of children.values()) {
    const staying = siblings.filter((b) => !returning.has(b.id)).sort((x, y) => x.position - y.position);
    const coming = siblings.filter((b) => returning.has(b.id)).sort((x, y) => x.position - y.position);
    for (const b of coming) staying.splice(Math.min(b.position, staying.length), 0, b);
    staying.forEach((b, i) => out.push({ ...b, position: i }));
  }
  return out;
}
