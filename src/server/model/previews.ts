// The previews a depth-limited read carries where it cuts (docs/server.md "Depth-limited reads"):
// a page, card or collection item whose children are cut gets `contentPreviewMd`, the markdown of
// the content left out; a collection whose items are cut gets `itemsPreviewMd`, a table of its
// first rows. Both are short (PREVIEW_MAX_CHARS) and read lazily, a level at a time, so a preview
// of a huge page reads only the blocks it shows.
import type { RequestContext } from '../context.js';
import { childBlocks, type BlockRow } from '../store/blocks.js';
import { parseData } from './blockData.js';

/** The longest preview, in characters ("…" included). */
export const PREVIEW_MAX_CHARS = 500;
const MORE = '…';

/**
 * Lines kept whole while they fit in PREVIEW_MAX_CHARS; the rest is replaced by a last line "…".
 * A first line longer than the limit is cut at its last space before it (or at it), then "…".
 */
function truncateLines(lines: Iterable<string>): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = line.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > PREVIEW_MAX_CHARS - (MORE.length + 1)) {
      if (kept.length === 0) {
        const room = PREVIEW_MAX_CHARS - MORE.length;
        const cut = line.slice(0, room);
        const space = cut.lastIndexOf(' ');
        return `${space > room / 2 ? cut.slice(0, space) : cut}${MORE}`;
      }
      kept.push(MORE);
      return kept.join('\n');
    }
    kept.push(line);
    used += cost;
  }
  return kept.join('\n');
}

/** The markdown lines of the blocks below `row`, depth first, read a level at a time and only as far as needed. */
function* contentLines(ctx: RequestContext, row: Pick<BlockRow, 'id'>): Generator<string> {
  for (const child of childBlocks(ctx.db, row.id)) {
    const md = child.type === 'collection' ? (parseData(child.data).title ?? '') : child.markdown;
    for (const line of ctx.media.signAll(md, ctx.origin, ctx.now).split('\n')) yield line;
    yield* contentLines(ctx, child);
  }
}

/** `contentPreviewMd` of a block whose children a read cut; undefined when it has none. */
export function contentPreview(ctx: RequestContext, row: Pick<BlockRow, 'id'>): string | undefined {
  const lines = contentLines(ctx, row);
  const first = lines.next();
  if (first.done) return undefined;
  return truncateLines(
    (function* () {
      yield first.value;
      yield* lines;
    })(),
  );
}

const cell = (v: unknown): string => {
  const text = v === null || v === undefined ? '' : Array.isArray(v) ? v.map(cell).join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
};

/**
 * `itemsPreviewMd` of a collection whose items a read cut: a pipe table of its rows (title, then
 * `keys`, the schema's property keys), as many whole rows as fit; undefined when it has no items.
 */
export function itemsPreview(ctx: RequestContext, row: Pick<BlockRow, 'id'>, keys: readonly string[]): string | undefined {
  const items = childBlocks(ctx.db, row.id).filter((r) => r.type === 'collectionItem');
  if (items.length === 0) return undefined;
  function* lines(): Generator<string> {
    yield `| ${['title', ...keys].map(cell).join(' | ')} |`;
    yield `|${' --- |'.repeat(keys.length + 1)}`;
    for (const item of items) {
      const data = parseData(item.data);
      yield `| ${[data.body ?? '', ...keys.map((k) => data.properties?.[k])].map(cell).join(' | ')} |`;
    }
  }
  return truncateLines(lines());
}
