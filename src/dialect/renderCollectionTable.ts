// A collection as a file shows it (renderCollectionFile): the editable table (renderCollectionTable) when its items came
// with it, else (the depth limit left them out) the service's output-only form (renderCollectionWith; its own markdown
// when it sent one), read-only. Item content is laid out by the function passed in (renderBlocks), so this file does not
// import it.
import type { Block, BlockFields } from './types.js';

// One property value of a collection item as the text of a table cell (the file's form). The cell
// is written without knowing the property's type: a string as itself, a number or a boolean as
// JSON writes it, a list (multi-select) as its entries joined by ", ", nothing as an empty cell.
// Escapes keep a cell one cell on one line: `\` → `\\`, `|` → `\|`, a line break → `<br>`, a
// literal `<br>` → `\<br>`, and inside a list entry `,` → `\,`. cellValue reads them back.
const escapeText = (s: string): string =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/<br>/g, '\\<br>')
    .replace(/\r\n|\r|\n/g, '<br>');

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? escapeText(v).replace(/,/g, '\\,') : cellText(v))).join(', ');
  return escapeText(JSON.stringify(value));
}

// The editable table: a Markdown table inside a `<collection name="…">`
// wrapper. The header row holds the property keys (the title first, as `title`), one row per item
// in the collection's order, each cell written by cellText. Items that have content (a page body)
// follow the table, read-only, in the service's own `<collectionItem>` form. Pure and deterministic:
// the same collection always gives the same bytes.
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

// A collection as the service renders it with the output-only tags (never accepted as input).
/** Renders an item's content blocks (renderBlocks in file mode). */
export type RenderContent = (blocks: readonly Block[]) => string;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function propertyValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(propertyValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const indentLines = (text: string, ind: string) =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : ind + l))
    .join('\n');

/**
 * `<collection>` with `<title>`, `<properties>` (the keys of the collection's own `properties` when
 * given, else of its items, in first-seen order) and `<content>` of `<collectionItem>`s; without
 * `content` (depth limit reached) `<itemsPreview>` holding `itemsPreviewMd` (empty without one).
 */
export function renderCollectionWith(f: BlockFields, renderContent: RenderContent): string {
  const items = f.content as ReadonlyArray<Partial<Block>> | undefined;
  const keys: string[] = [];
  const seen = new Set<string>();
  const addKeys = (o: Record<string, unknown> | undefined) => {
    for (const k of Object.keys(o ?? {}))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  };
  addKeys(f.properties);
  if (keys.length === 0) for (const it of items ?? []) addKeys(it.properties);
  const out = ['<collection>', `  <title>${f.title ?? ''}</title>`, `  <properties>${keys.join(', ')}</properties>`];
  if (!items) {
    if (f.itemsPreviewMd) out.push('  <itemsPreview>', indentLines(f.itemsPreviewMd, '    '), '  </itemsPreview>');
    else out.push('  <itemsPreview></itemsPreview>');
  } else {
    out.push('  <content>');
    for (const it of items) {
      out.push('    <collectionItem>', `      <title>${it.title ?? it.markdown ?? ''}</title>`);
      for (const [k, v] of Object.entries(it.properties ?? {})) out.push(`      <property name="${esc(k)}">${propertyValue(v)}</property>`);
      if (it.content && it.content.length > 0) {
        out.push('      <content>', indentLines(renderContent(it.content as Block[]), '        '), '      </content>');
      }
      out.push('    </collectionItem>');
    }
    out.push('  </content>');
  }
  out.push('</collection>');
  return out.join('\n');
}

/** A collection's name: the block's `title`, or the `<title>` the service writes into its markdown (the block JSON has no field for it). */
function collectionName(f: Pick<BlockFields, 'title' | 'markdown'>): string | undefined {
  return f.title ?? /^<collection>\n[ \t]*<title>(.*)<\/title>/.exec(f.markdown ?? '')?.[1];
}

export function renderCollectionFile(f: BlockFields, renderContent: RenderContent): string {
  if (!f.content && f.markdown?.startsWith('<collection>')) return f.markdown;
  // The columns are the schema's keys: the block's `properties`, or the `<properties>` of the service's
  // markdown (a block read from the service has no field for them); never only the keys items use.
  const listed = /^[ \t]*<properties>(.*)<\/properties>[ \t]*$/m.exec(f.markdown ?? '')?.[1];
  const properties =
    f.properties ?? (listed === undefined ? undefined : Object.fromEntries(listed.split(',').flatMap((k) => (k.trim() ? [[k.trim(), '']] : []))));
  const named = { ...f, title: collectionName(f), ...(properties ? { properties } : {}) };
  return named.content ? renderCollectionTable({ ...named, content: named.content }, renderContent) : renderCollectionWith(named, renderContent);
}
