// A remote version (the document as the space held it before a push changed it) as a file body:
// the flat blocks of the history rebuilt into their tree and rendered as the pull renders a file.
import { renderFileBody, type Block, type BlockType } from '../../dialect/index.js';
import type { HistoryBlock } from '../../journal/index.js';

export function renderVersion(blocks: readonly HistoryBlock[]): string {
  const children = new Map<string | null, HistoryBlock[]>();
  for (const b of blocks) {
    const had = children.get(b.parentId);
    if (had) had.push(b);
    else children.set(b.parentId, [b]);
  }
  const make = (b: HistoryBlock): Block => {
    const kids = (children.get(b.id) ?? []).sort((x, y) => x.position - y.position).map(make);
    if (b.kind === 'page' || b.kind === 'card') {
      return {
        id: b.id,
        type: 'page',
        markdown: b.markdown,
        content: kids,
        ...(b.kind === 'card' ? { textStyle: 'card' as const } : {}),
        ...(b.cardLayout ? { cardLayout: b.cardLayout as Block['cardLayout'] } : {}),
      };
    }
    // Its markdown is the block as the file shows it; listStyle only lets list items sit on consecutive lines.
    return { id: b.id, type: b.type as BlockType, markdown: b.markdown, listStyle: 'bullet' };
  };
  return renderFileBody((children.get(null) ?? []).sort((x, y) => x.position - y.position).map(make));
}
