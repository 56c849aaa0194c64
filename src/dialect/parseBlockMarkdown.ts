// One block's `markdown` (a PUT /blocks body, a file segment) → its structured fields.
import type { ParsedBlock } from './types.js';
import { scanBlocks } from './scanBlocks.js';
import { readBlock } from './readBlock.js';
import { dialectError } from './dialectError.js';
import { checkInputTags } from './checkInputTags.js';

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
