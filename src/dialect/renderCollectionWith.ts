// A collection as the service renders it with the output-only tags (never accepted as input). The
// items' content is rendered by the function passed in (renderBlocks), so this file imports none.
import type { Block, BlockFields } from './types.js';

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
