// A whole document as `GET /blocks` with `Accept: text/markdown` renders it.
import type { Block } from './types.js';
import { renderWrapper } from './renderBlocks.js';

export function renderDocumentMarkdown(root: Block): string {
  return renderWrapper({ ...root, indentationLevel: 0 }, 'text', true);
}
