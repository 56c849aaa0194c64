// Markdown input → blocks: one block's `markdown` (a PUT /blocks body, a file segment) → its structured fields,
// and an insert's markdown split into blocks.
import { CARD_LAYOUTS, type ParsedBlock, type ParsedBlockNode } from './types.js';
import { scanBlocks, lineNumberAt, type ScanNode } from './scanBlocks.js';
import { readBlock } from './readBlock.js';
import { dialectError } from './scanContext.js';
import { makeLines } from './lines.js';

export function parseBlockMarkdown(markdown: string): ParsedBlock {
  // Spaces alone on one line are one paragraph, kept as written (trailing spaces are kept).
  if (!markdown.includes('\n') && markdown.trim() === '') return { type: 'text', body: markdown };
  // One block may be an empty list item (an emptied bullet); only inserts refuse an empty first item.
  const nodes = scanBlocks(markdown, true, 0, false);
  if (nodes.length !== 1) {
    const second = nodes[1];
    const line = second ? markdown.slice(0, second.start).split('\n').length : 1;
    throw dialectError(line, `this markdown would become ${nodes.length} blocks, not one`, 'Send one block per markdown, or insert several with POST /blocks');
  }
  const node = nodes[0]!;
  if (node.kind !== 'block') {
    throw dialectError(
      1,
      `a <${node.kind}> wrapper is not one block's markdown`,
      "Insert pages and cards with POST /blocks; a page block's markdown is its title",
    );
  }
  checkInputTags(node.markdown, 1);
  return readBlock(node.markdown);
}

// Refuses the output-only collection tags in input, outside code.
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

// An insert (`POST /blocks` with `markdown`) split and normalised into blocks, as the service does.
export function splitMarkdown(markdown: string): ParsedBlockNode[] {
  const nodes = scanBlocks(markdown, true);
  const index = { lines: makeLines(markdown) };
  const lineOf = (offset: number) => lineNumberAt(index, offset);
  const convert = (n: ScanNode): ParsedBlockNode => {
    if (n.kind === 'page' || n.kind === 'card') {
      const title = n.markdown;
      checkInputTags(title, lineOf(n.start));
      const layout = n.attrs?.cardLayout;
      const node: ParsedBlockNode = { type: 'page', body: title, title };
      if (n.kind === 'card') node.textStyle = 'card';
      if (n.kind === 'card' && layout && (CARD_LAYOUTS as readonly string[]).includes(layout)) node.cardLayout = layout as ParsedBlockNode['cardLayout'];
      if (n.level > 0) node.indentationLevel = n.level;
      node.children = (n.children ?? []).map(convert);
      return node;
    }
    checkInputTags(n.markdown, lineOf(n.start));
    return readBlock(n.markdown);
  };
  return nodes.map(convert);
}
