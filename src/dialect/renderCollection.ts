// A collection as the service renders it, its items' content laid out by renderBlocks.
import { renderBlocks } from './renderBlocks.js';
import { renderCollectionWith } from './renderCollectionWith.js';
import type { BlockFields } from './types.js';

export function renderCollection(f: BlockFields): string {
  return renderCollectionWith(f, (blocks) => renderBlocks(blocks));
}
