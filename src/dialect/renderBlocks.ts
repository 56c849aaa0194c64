// Blocks as markdown: each block by the handler of its type, and a list of sibling blocks the way a file body and a
// text rendering lay them out: a blank line between blocks, one newline between consecutive list items.
import type { Block, BlockFields, BlockType, LineStyle, TextStyle } from './types.js';
import { lineKind } from './lineKind.js';
import { renderCollectionFile, renderCollectionWith, type RenderContent } from './renderCollectionTable.js';
import { withTaskDates } from './taskDates.js';
import { readBlock } from './readBlock.js';

/**
 * Whether a block is shown as a `<page>`/`<card>` wrapper (its markdown is then its title): a page,
 * a text block styled page or card, or a text block that has children (the service makes it a page).
 */
export function isPageLike(b: Pick<BlockFields, 'type' | 'textStyle' | 'content'>): boolean {
  if (b.type === 'page') return true;
  if (b.type !== undefined && b.type !== 'text') return false;
  return b.textStyle === 'page' || b.textStyle === 'card' || (b.content !== undefined && b.content.length > 0);
}

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

// Block fields → the `markdown` the service returns for that block: one handler per block type
// (Record<BlockType, …>, so a new type does not type-check without one). A handler that needs other
// blocks rendered (a collection's items) gets renderBlocks through the state, not by an import.
export interface RenderState {
  renderBlocks: RenderContent;
}

export type RenderHandler = (f: BlockFields, state: RenderState) => string;

const STARS: Record<LineStyle, number> = { extraLight: 3, light: 4, regular: 5, strong: 6, pageBreak: 7 };
const HEADING: Partial<Record<TextStyle, string>> = { h1: '# ', h2: '## ', h3: '### ', h4: '#### ' };
const TASK = { todo: '- [ ] ', done: '- [x] ', canceled: '- [-] ' } as const;
const LIST = { bullet: '- ', numbered: '1. ', toggle: '+ ' } as const;

/** The longest run of `ch` that starts a line of `code`, so a fence can be longer. */
function longestFenceRun(code: string, ch: string): number {
  let max = 0;
  for (const m of code.matchAll(ch === '`' ? /^[ \t]*(`{3,})/gm : /^[ \t]*(~{3,})/gm)) max = Math.max(max, m[1]!.length);
  return max;
}

/** A wrapper's (or an item's) markdown is its title. */
const title: RenderHandler = (f) => f.body ?? f.markdown ?? f.title ?? '';

/** A block of one level: its text at its indentation, inside `<callout>` when it has that decoration. */
const leaf =
  (inner: (f: BlockFields, indent: string) => string): RenderHandler =>
  (f) => {
    const indent = '  '.repeat(Math.max(0, Math.min(5, f.indentationLevel ?? 0)));
    const text = inner(f, indent);
    return indent + (f.decorations?.includes('callout') ? `<callout>${text}</callout>` : text);
  };

/** Continuation lines of a multi-line block sit at the block's indentation. */
const indentRest = (text: string, indent: string) =>
  text
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : indent + l))
    .join('\n');

const image = (fallback: string) => leaf((f) => `![${f.altText || fallback}](${f.url ?? ''})`);

const paragraph = leaf((f, indent) => {
  const body = f.body ?? (f.markdown !== undefined ? readBlock(f.markdown).body : '');
  const quote = f.decorations?.includes('quote') ?? false;
  const list = f.listStyle === 'task' ? TASK[f.taskInfo?.state ?? 'todo'] : f.listStyle && f.listStyle !== 'none' ? LIST[f.listStyle] : '';
  const text = f.textStyle === 'caption' ? `<caption>${body}</caption>` : (HEADING[f.textStyle ?? 'body'] ?? '') + body;
  return (quote ? '> ' : '') + list + (quote ? text.replace(/\n/g, `\n${indent}> `) : text);
});

export const RENDER_HANDLERS: Readonly<Record<BlockType, RenderHandler>> = {
  text: (f, state) => (isPageLike(f) ? title(f, state) : paragraph(f, state)),
  page: title,
  collectionItem: title,
  collection: (f, state) => renderCollectionWith(f, state.renderBlocks),
  line: leaf((f) => '*'.repeat(STARS[f.lineStyle ?? 'regular'] ?? 5)),
  code: leaf((f, indent) => {
    const code = f.rawCode ?? f.body ?? '';
    const fence = '`'.repeat(Math.max(3, longestFenceRun(code, '`') + 1));
    return [`${fence}${f.language ?? ''}`, ...(code === '' ? [] : code.split('\n')), fence].map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n');
  }),
  table: leaf((f, indent) => indentRest(f.body ?? f.markdown ?? '', indent)),
  image: image('Image'),
  video: image('Image'),
  drawing: image('Image'),
  whiteboard: image('Whiteboard'),
  file: leaf((f) => `[${f.fileName ?? ''}](${f.url ?? ''})`),
  richUrl: leaf((f) => `[${f.title ?? ''}](${f.url ?? ''})`),
};

/** The handler of the block's type; a type this version does not know renders as text. */
export function renderWith(f: BlockFields, state: RenderState): string {
  const handler = (f.type !== undefined && Object.hasOwn(RENDER_HANDLERS, f.type) ? RENDER_HANDLERS[f.type] : undefined) ?? RENDER_HANDLERS.text;
  return handler(f, state);
}

// Block fields → the `markdown` field the service returns for that block (defaults omitted), by the
// handler of its type (RENDER_HANDLERS).
export function renderBlockMarkdown(f: BlockFields): string {
  return renderWith(f, { renderBlocks: (blocks) => renderBlocks(blocks) });
}

// A whole document as `GET /blocks` with `Accept: text/markdown` renders it.
export function renderDocumentMarkdown(root: Block): string {
  return renderWrapper({ ...root, indentationLevel: 0 }, 'text', true);
}

// The mirror file body of a document: its top-level blocks, wrappers without ids, one final newline.
export function renderFileBody(blocks: readonly Block[]): string {
  return blocks.length === 0 ? '' : `${renderBlocks(blocks, 'file')}\n`;
}

// A collection as a file shows it (renderCollectionFile), its items' content laid out by renderBlocks.
export function renderCollection(f: BlockFields): string {
  return renderCollectionFile(f, (blocks) => renderBlocks(blocks));
}
