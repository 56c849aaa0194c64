// Reads one block's markdown (already known to be one block) into its structured fields.
import { CODE_LANGUAGES, type CodeLanguage, type LineStyle, type ParsedBlock, type TaskState, type TextStyle } from './types.js';
import { leading, levelOf, skipColumns } from './lines.js';
import { FENCE, HEADING, isDelimiterRow, THEMATIC } from './lineKind.js';

const LANGUAGES = new Set<string>(CODE_LANGUAGES);
const ALIASES: Record<string, CodeLanguage> = {
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  rb: 'ruby',
  sh: 'shell',
  zsh: 'shell',
  console: 'shell',
  yml: 'yaml',
  md: 'markdown',
  'c++': 'cpp',
  c: 'cpp',
  'c#': 'cs',
  csharp: 'cs',
  objc: 'objectivec',
  'objective-c': 'objectivec',
  kt: 'kotlin',
  rs: 'rust',
  golang: 'go',
  text: 'plaintext',
  txt: 'plaintext',
  plain: 'plaintext',
  vb: 'vbnet',
  math: 'math_formula',
  latex: 'math_formula',
  tex: 'math_formula',
  hs: 'haskell',
  pl: 'perl',
  docker: 'dockerfile',
};
const LINE_BY_STARS: Record<number, LineStyle> = { 3: 'extraLight', 4: 'light', 5: 'regular', 6: 'strong' };
const HEADINGS: TextStyle[] = ['h1', 'h2', 'h3', 'h4', 'h4', 'h4'];
const TASK_STATE: Record<string, TaskState> = { ' ': 'todo', x: 'done', X: 'done', '-': 'canceled' };
// The destination bare, or in angle brackets when it holds spaces (a local asset link, `<My Notes.assets/x.png>`).
const MEDIA = /^!\[([^\]\n]*)\]\((<[^<>\n]*>|[^()\s]*)\)$/;

/** The code language named by a fence's info string: known names and common aliases; anything else is `other`. */
export function languageOf(info: string): CodeLanguage | undefined {
  const word = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (!word) return undefined;
  if (LANGUAGES.has(word)) return word as CodeLanguage;
  return ALIASES[word] ?? 'other';
}

// The callout wrapper and the indentation are read off first: they apply to a block of any type.
export function readBlock(markdown: string): ParsedBlock {
  let s = markdown.includes('\r') ? markdown.replace(/\r\n/g, '\n') : markdown;
  const lead = leading(s, 0, s.length);
  let cols = lead.cols;
  s = s.slice(lead.p);
  const decorations: ParsedBlock['decorations'] = [];
  const trimmed = s.trimEnd();
  if (trimmed.startsWith('<callout>') && trimmed.endsWith('</callout>') && trimmed.length >= 19) {
    decorations.push('callout');
    s = trimmed
      .slice(9, -10)
      .replace(/^[ \t]*\n/, '')
      .replace(/\n[ \t]*$/, '');
    const inner = leading(s, 0, s.length);
    cols += inner.cols;
    s = s.slice(inner.p);
  }
  const b = readShaped(s, cols) ?? readText(s, decorations);
  const level = levelOf(cols);
  if (level > 0) b.indentationLevel = level;
  if (decorations.length) b.decorations = decorations;
  return b;
}

// Code (a fence, or a `$$…$$` formula block), a line, a table: the blocks whose first lines say
// their type. Undefined for text and images.
function readShaped(s: string, cols: number): ParsedBlock | undefined {
  const nl = s.indexOf('\n');
  const first = nl < 0 ? s : s.slice(0, nl);
  const fence = FENCE.exec(first);
  if (fence) {
    const run = fence[1] ?? fence[3]!;
    const lines = outdent(s.split('\n').slice(1), cols, 0);
    const close = new RegExp(`^[ \\t]*${run[0] === '`' ? '`' : '~'}{${run.length},}[ \\t]*$`);
    if (lines.length > 0 && close.test(lines[lines.length - 1]!)) lines.pop();
    const rawCode = lines.join('\n');
    const language = languageOf(fence[2] ?? fence[4] ?? '');
    return { type: 'code', body: rawCode, rawCode, ...(language ? { language } : {}) };
  }
  const formula = /^\$\$([\s\S]*)\$\$[ \t]*$/.exec(s);
  if (formula && s.length >= 4) {
    const lines = formula[1]!
      .replace(/^[ \t]*\n/, '')
      .replace(/\n[ \t]*$/, '')
      .split('\n');
    const rawCode = outdent(lines, cols, 1).join('\n');
    return { type: 'code', body: rawCode, rawCode, language: 'math_formula' };
  }
  if (nl < 0 && THEMATIC.test(first.trimEnd())) {
    const t = first.trimEnd();
    const lineStyle = /^\*+$/.test(t) ? (t.length >= 7 ? 'pageBreak' : LINE_BY_STARS[t.length]!) : 'regular';
    return { type: 'line', body: '', ...(lineStyle !== 'regular' ? { lineStyle } : {}) };
  }
  if (nl >= 0 && first.includes('|') && isDelimiterRow((s.slice(nl + 1).split('\n')[0] ?? '').trim()))
    return { type: 'table', body: normalizeInline(outdent(s.split('\n'), cols, 1).join('\n')) };
  return undefined;
}

// The continuation lines of an indented block carry its indentation: removed from line `from` on.
function outdent(lines: string[], cols: number, from: number): string[] {
  return lines.map((l, i) => (i < from ? l : l.slice(skipColumns(l, 0, l.length, cols))));
}

// Text with its markers (quote, list item, heading, caption) read off, or an image when nothing
// marks it and it is one media link.
function readText(text: string, decorations: NonNullable<ParsedBlock['decorations']>): ParsedBlock {
  let s = text;
  const block: ParsedBlock = { type: 'text', body: '' };
  let plain = true;
  if (s.startsWith('>')) {
    decorations.push('quote');
    s = s.replace(/^> ?/, '').replace(/\n[ \t]*> ?/g, '\n');
    plain = false;
  }
  let m: RegExpExecArray | null;
  if ((m = /^[-*+][ \t]+\[([ xX-])\](?:[ \t]|$)/.exec(s))) {
    block.listStyle = 'task';
    block.taskInfo = { state: TASK_STATE[m[1]!]! };
  } else if ((m = /^[-*](?:[ \t]|$)/.exec(s))) block.listStyle = 'bullet';
  else if ((m = /^\+(?:[ \t]|$)/.exec(s))) block.listStyle = 'toggle';
  else if ((m = /^\d{1,9}[.)](?:[ \t]|$)/.exec(s))) block.listStyle = 'numbered';
  if (m) {
    s = s.slice(m[0].length);
    plain = false;
  }
  if ((m = HEADING.exec(s))) {
    block.textStyle = HEADINGS[m[0].trimEnd().length - 1]!;
    s = s.slice(m[0].length);
    plain = false;
  } else if (s.startsWith('<caption>') && s.trimEnd().endsWith('</caption>') && s.trimEnd().length >= 19) {
    block.textStyle = 'caption';
    s = s.trimEnd().slice(9, -10);
    plain = false;
  }
  const media = plain ? MEDIA.exec(s) : null;
  if (media) {
    const alt = media[1]!;
    const url = media[2]!.startsWith('<') ? media[2]!.slice(1, -1) : media[2]!;
    return { type: 'image', body: '', url, ...(alt && alt !== 'Image' ? { altText: alt } : {}) };
  }
  block.body = normalizeInline(s);
  return block;
}

// The service's inline normalisations: `_x_` → `*x*`, `__x__` → `**x**`, `==x==` → a yellow
// highlight tag. Code spans, math, link targets, tags and bare URLs are left as they are.
const PROTECTED = /(`+)[\s\S]*?\1|\$\$[\s\S]*?\$\$|\$[^$\s](?:[^$]*[^$\s])?\$|\]\([^)]*\)|<[^<>\n]*>|\bhttps?:\/\/[^\s<>()]+/g;
const STRONG = /(^|[^\w\\_])__(?![\s_])([^\n]*?[^\s\\_])__(?![\w_])/g;
const EM = /(^|[^\w\\_*])_(?![\s_])([^\n]*?[^\s\\_])_(?![\w_])/g;
const MARK = /(^|[^=\\])==(?![\s=])([^\n]*?[^\s=\\])==(?!=)/g;

export function normalizeInline(text: string): string {
  const hasUnderscore = text.includes('_');
  const hasMark = text.includes('==');
  // The placeholder character below must not occur in the text itself.
  if ((!hasUnderscore && !hasMark) || text.includes('\uE000')) return text;
  const kept: string[] = [];
  // Placeholders use a private-use character that cannot appear in the patterns above.
  let out = text.replace(PROTECTED, (m) => `\uE000${kept.push(m) - 1}\uE001`);
  if (hasUnderscore) out = out.replace(STRONG, '$1**$2**').replace(EM, '$1*$2*');
  if (hasMark) out = out.replace(MARK, '$1<highlight color="yellow">$2</highlight>');
  return kept.length === 0 ? out : out.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => kept[Number(i)] ?? '');
}
