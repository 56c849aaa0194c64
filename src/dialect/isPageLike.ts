// Which blocks a file shows as a `<page>`/`<card>` wrapper.
import type { BlockFields } from './types.js';

/**
 * Whether a block is shown as a `<page>`/`<card>` wrapper (its markdown is then its title): a page,
 * a text block styled page or card, or a text block that has children (the service makes it a page).
 */
export function isPageLike(b: Pick<BlockFields, 'type' | 'textStyle' | 'content'>): boolean {
  if (b.type === 'page') return true;
  if (b.type !== undefined && b.type !== 'text') return false;
  return b.textStyle === 'page' || b.textStyle === 'card' || (b.content !== undefined && b.content.length > 0);
}
