// Block fields → the `markdown` field the service returns for that block (defaults omitted), by the
// handler of its type (renderHandlers.ts).
import { renderBlocks } from './renderBlocks.js';
import { renderWith } from './renderHandlers.js';
import type { BlockFields } from './types.js';

export { isPageLike } from './isPageLike.js';

export function renderBlockMarkdown(f: BlockFields): string {
  return renderWith(f, { renderBlocks: (blocks) => renderBlocks(blocks) });
}
