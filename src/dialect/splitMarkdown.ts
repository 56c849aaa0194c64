// An insert (`POST /blocks` with `markdown`) split and normalised into blocks, as the service does.
import type { ParsedBlockNode } from './types.js';
import { lineNumberAt, scanBlocks, type ScanNode } from './scanBlocks.js';
import { makeLines } from './lines.js';
import { readBlock } from './readBlock.js';
import { checkInputTags } from './checkInputTags.js';
import { CARD_LAYOUTS } from './cardLayouts.js';

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
