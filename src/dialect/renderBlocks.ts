// Renders a list of sibling blocks the way a file body and a text rendering lay them out:
// a blank line between blocks, one newline between consecutive list items.
import type { Block } from './types.js';
import { isPageLike } from './isPageLike.js';
import { lineKind } from './lineKind.js';
import { renderCollectionFile } from './renderCollectionFile.js';
import { renderCollectionWith } from './renderCollectionWith.js';
import { renderWith, type RenderState } from './renderHandlers.js';
import { withTaskDates } from './taskDates.js';

/** `file`: `<page>`/`<card>` wrappers without ids or extra indentation; `text`: the `Accept: text/markdown` form. */
export type RenderMode = 'file' | 'text';

export const indentLines = (text: string, ind: string): string =>
  ind === ''
    ? text
    : text
        .split('\n')
        .map((l) => (l === '' ? l : ind + l))
        .join('\n');

const isListItem = (b: Block, md: string): boolean => {
  if (isPageLike(b) || !b.listStyle || b.listStyle === 'none') return false;
  const k = lineKind(md.trimStart() || '-');
  return k === 'list' || k === 'callout';
};

const state: RenderState = { renderBlocks: (blocks) => renderBlocks(blocks) };

function blockMarkdown(b: Block, mode: RenderMode): string {
  // A file shows a collection as its table (renderCollection; a merge hands it already rendered);
  // the text form keeps the service's own markdown (schema keys in order) over a re-render from items.
  if (b.type === 'collection' && mode === 'file') return b.markdown?.startsWith('<collection name=') ? b.markdown : renderCollectionFile(b, state.renderBlocks);
  if (b.type === 'collection') return b.markdown?.startsWith('<collection>') ? b.markdown : renderCollectionWith(b, state.renderBlocks);
  return b.markdown ?? renderWith(b, state);
}

/** A page or card as a wrapper. In text mode it carries its id and style, and its body sits four spaces in. */
export function renderWrapper(b: Block, mode: RenderMode, isRoot = false): string {
  const ind = '  '.repeat(Math.max(0, Math.min(5, b.indentationLevel ?? 0)));
  const card = b.textStyle === 'card';
  const title = b.markdown ?? b.title ?? '';
  const children = b.content ?? [];
  if (mode === 'text') {
    const attrs = `${b.id !== undefined ? ` id="${b.id}"` : ''}${card && !isRoot ? ' textStyle="card"' : ''}${b.cardLayout && !isRoot ? ` cardLayout="${b.cardLayout}"` : ''}`;
    const lines = [`${ind}<page${attrs}>`, `${ind}  <pageTitle>${title}</pageTitle>`];
    if (children.length > 0) lines.push(`${ind}  <content>`, indentLines(renderBlocks(children, mode), `${ind}    `), `${ind}  </content>`);
    // A page read without its children (the depth limit) shows the preview the read gave in their place.
    const preview = (b as Block & { contentPreviewMd?: unknown }).contentPreviewMd;
    if (b.content === undefined && typeof preview === 'string' && preview !== '') {
      lines.push(`${ind}  <contentPreview>`, indentLines(preview, `${ind}    `), `${ind}  </contentPreview>`);
    }
    lines.push(`${ind}</page>`);
    return lines.join('\n');
  }
  const tag = card ? 'card' : 'page';
  const lines = [`${ind}<${tag}${card && b.cardLayout ? ` cardLayout="${b.cardLayout}"` : ''}>`, `${ind}<pageTitle>${title}</pageTitle>`];
  if (children.length > 0) lines.push(`${ind}<content>`, indentLines(renderBlocks(children, mode), ind), `${ind}</content>`);
  lines.push(`${ind}</${tag}>`);
  return lines.join('\n');
}

/** Sibling blocks joined by their separators, without a final newline. */
export function renderBlocks(blocks: readonly Block[], mode: RenderMode = 'file'): string {
  let out = '';
  let prev: { block: Block; md: string } | null = null;
  for (const b of blocks) {
    // A file shows a task's dates at the end of its line (taskDates.ts); the text form keeps the service's markdown.
    const md = isPageLike(b) ? renderWrapper(b, mode) : mode === 'file' ? withTaskDates(blockMarkdown(b, mode), b.taskInfo) : blockMarkdown(b, mode);
    if (prev) out += isListItem(prev.block, prev.md) && isListItem(b, md) ? '\n' : '\n\n';
    out += md;
    prev = { block: b, md };
  }
  return out;
}
