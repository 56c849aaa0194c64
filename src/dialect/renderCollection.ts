// A collection as a file shows it (renderCollectionFile), its items' content laid out by renderBlocks.
import { renderBlocks } from './renderBlocks.js';
import { renderCollectionFile } from './renderCollectionFile.js';
import type { BlockFields } from './types.js';

export function renderCollection(f: BlockFields): string {
  return renderCollectionFile(f, (blocks) => renderBlocks(blocks));
}
