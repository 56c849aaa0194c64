// Block fields → the `markdown` the service returns for that block: one handler per block type
// (Record<BlockType, …>, so a new type does not type-check without one). A handler that needs other
// blocks rendered (a collection's items) gets renderBlocks through the state, not by an import.
import { isPageLike } from './isPageLike.js';
import { readBlock } from './readBlock.js';
import { renderCollectionWith, type RenderContent } from './renderCollectionWith.js';
import type { BlockFields, BlockType, LineStyle, TextStyle } from './types.js';

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
