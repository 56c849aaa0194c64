// Refuses the output-only collection tags in input, outside code.
import { dialectError } from './dialectError.js';

const OUTPUT_ONLY = /<\/?(?:collection|collectionItem|title|properties|property|contentPreview|itemsPreview)(?=[\s>/])/;
const CODE = /^[ \t]*(`{3,}|~{3,})[\s\S]*?(?:^[ \t]*\1[ \t]*$|(?![\s\S]))|(`+)[\s\S]*?\2/gm;

/** Throws dialect_input when `markdown` (starting at line `firstLine`) uses an output-only tag. */
export function checkInputTags(markdown: string, firstLine: number): void {
  if (!markdown.includes('<')) return;
  const m = OUTPUT_ONLY.exec(markdown.replace(CODE, (c) => c.replace(/[^\n]/g, ' ')));
  if (!m) return;
  const line = firstLine + markdown.slice(0, m.index).split('\n').length - 1;
  throw dialectError(
    line,
    `${m[0]}> is an output-only collection tag`,
    'Collections cannot be written as markdown; remove the tag, or create the collection with POST /collections',
  );
}
