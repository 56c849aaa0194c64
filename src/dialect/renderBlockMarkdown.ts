// Block fields → the `markdown` field the service returns for that block (defaults omitted).
import type { BlockFields, LineStyle, TextStyle } from './types.js';
import { readBlock } from './readBlock.js';
import { renderCollection } from './renderCollection.js';

const STARS: Record<LineStyle, number> = { extraLight: 3, light: 4, regular: 5, strong: 6, pageBreak: 7 };
const HEADING: Partial<Record<TextStyle, string>> = { h1: '# ', h2: '## ', h3: '### ', h4: '#### ' };
const TASK = { todo: '- [ ] ', done: '- [x] ', canceled: '- [-] ' } as const;
const LIST = { bullet: '- ', numbered: '1. ', toggle: '+ ' } as const;

/**
 * Whether a block is shown as a `<page>`/`<card>` wrapper (its markdown is then its title): a page,
 * a text block styled page or card, or a text block that has children (the service makes it a page).
 */
export function isPageLike(b: Pick<BlockFields, 'type' | 'textStyle' | 'content'>): boolean {
  if (b.type === 'page') return true;
  if (b.type !== undefined && b.type !== 'text') return false;
  return b.textStyle === 'page' || b.textStyle === 'card' || (b.content !== undefined && b.content.length > 0);
}

/** The longest run of `ch` that starts a line of `code`, so a fence can be longer. */
function longestFenceRun(code: string, ch: string): number {
  let max = 0;
  for (const m of code.matchAll(ch === '`' ? /^[ \t]*(`{3,})/gm : /^[ \t]*(~{3,})/gm)) max = Math.max(max, m[1]!.length);
  return max;
}

export function renderBlockMarkdown(f: BlockFields): string {
  const type = f.type ?? 'text';
  if (isPageLike(f) || type === 'collectionItem') return f.body ?? f.markdown ?? f.title ?? '';
  if (type === 'collection') return renderCollection(f);
  const level = Math.max(0, Math.min(5, f.indentationLevel ?? 0));
  const indent = '  '.repeat(level);
  const callout = f.decorations?.includes('callout') ?? false;
  let inner: string;
  switch (type) {
    case 'line':
      inner = '*'.repeat(STARS[f.lineStyle ?? 'regular'] ?? 5);
      break;
    case 'code': {
      const code = f.rawCode ?? f.body ?? '';
      const fence = '`'.repeat(Math.max(3, longestFenceRun(code, '`') + 1));
      const lines = [`${fence}${f.language ?? ''}`, ...(code === '' ? [] : code.split('\n')), fence];
      inner = lines.map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n');
      break;
    }
    case 'table':
      inner = (f.body ?? f.markdown ?? '').split('\n').map((l, i) => (i === 0 || l === '' ? l : indent + l)).join('\n');
      break;
    case 'image':
    case 'video':
    case 'drawing':
      inner = `![${f.altText || 'Image'}](${f.url ?? ''})`;
      break;
    case 'whiteboard':
      inner = `![${f.altText || 'Whiteboard'}](${f.url ?? ''})`;
      break;
    case 'file':
      inner = `[${f.fileName ?? ''}](${f.url ?? ''})`;
      break;
    case 'richUrl':
      inner = `[${f.title ?? ''}](${f.url ?? ''})`;
      break;
    default: {
      const body = f.body ?? (f.markdown !== undefined ? readBlock(f.markdown).body : '');
      const quote = f.decorations?.includes('quote') ?? false;
      const list = f.listStyle === 'task' ? TASK[f.taskInfo?.state ?? 'todo'] : f.listStyle && f.listStyle !== 'none' ? LIST[f.listStyle] : '';
      const text = f.textStyle === 'caption' ? `<caption>${body}</caption>` : (HEADING[f.textStyle ?? 'body'] ?? '') + body;
      inner = (quote ? '> ' : '') + list + (quote ? text.replace(/\n/g, `\n${indent}> `) : text);
    }
  }
  return indent + (callout ? `<callout>${inner}</callout>` : inner);
}
