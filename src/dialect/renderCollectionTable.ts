// A collection as the file shows it: an editable Markdown table inside a `<collection name="…">`
// wrapper. The header row holds the property keys (the title first, as `title`), one row per item
// in the collection's order, each cell written by cellText. Items that have content (a page body)
// follow the table, read-only, in the service's own `<collectionItem>` form. Pure and deterministic:
// the same collection always gives the same bytes.
import { cellText } from './cellText.js';
import type { RenderContent } from './renderCollectionWith.js';
import type { Block, BlockFields } from './types.js';

/** The header cell of the title column. */
export const TITLE_COLUMN = 'title';

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The collection's columns: the keys of its own `properties` (its schema), then any key only its items use. */
export function collectionKeys(f: BlockFields): string[] {
  const keys: string[] = [];
  const seen = new Set<string>([TITLE_COLUMN]);
  const add = (o: Record<string, unknown> | undefined) => {
    for (const k of Object.keys(o ?? {}))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  };
  add(f.properties);
  for (const it of f.content ?? []) add(it.properties);
  return keys;
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

export function renderCollectionTable(f: BlockFields & { content: ReadonlyArray<Partial<Block>> }, renderContent: RenderContent): string {
  const keys = collectionKeys(f);
  const out = [`<collection name="${attr(f.title ?? '')}">`, '', row([TITLE_COLUMN, ...keys]), row([TITLE_COLUMN, ...keys].map(() => '---'))];
  for (const it of f.content) out.push(row([cellText(it.title ?? it.markdown ?? ''), ...keys.map((k) => cellText(it.properties?.[k]))]));
  for (const it of f.content) {
    if (!it.content || it.content.length === 0) continue;
    out.push(
      '',
      '<collectionItem>',
      `<title>${it.title ?? it.markdown ?? ''}</title>`,
      '<content>',
      renderContent(it.content as Block[]),
      '</content>',
      '</collectionItem>',
    );
  }
  out.push('', '</collection>');
  return out.join('\n');
}
