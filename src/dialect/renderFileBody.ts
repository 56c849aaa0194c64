// The mirror file body of a document: its top-level blocks, wrappers without ids, one final newline.
import type { Block } from './types.js';
import { renderBlocks } from './renderBlocks.js';

export function renderFileBody(blocks: readonly Block[]): string {
  return blocks.length === 0 ? '' : `${renderBlocks(blocks, 'file')}\n`;
}
