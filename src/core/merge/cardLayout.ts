// A card's layout (`cardLayout`): what the file asks for (its wrapper's attribute) and what a block
// of base or of the service has. The journal keeps no layout: a base block's hash carries it.
import { CARD_LAYOUTS, type CardLayout } from '../../dialect/index.js';
import { hashBlock } from './hashBlock.js';
import type { LocalBlock } from '../types.js';

export const isCardLayout = (v: string): v is CardLayout => (CARD_LAYOUTS as readonly string[]).includes(v);

/** The layout a card of the file states, checked: none, a layout, or a value the service would refuse. */
export function fileCardLayout(local: LocalBlock): { layout?: CardLayout } | { invalid: string } {
  const v = local.kind === 'card' ? local.attrs?.cardLayout : undefined;
  if (v === undefined) return {};
  return isCardLayout(v) ? { layout: v } : { invalid: v };
}

/** Why a card's layout cannot be sent. */
export const invalidLayoutReason = (v: string) => `its card layout "${v}" is not one the service knows (${CARD_LAYOUTS.join(', ')})`;

/**
 * A card's layout as a block of base or of the service says (`layout` undefined: none), or unknown:
 * a journal's block has it only in its hash, and a hash made before layouts were hashed has none.
 */
export function cardLayoutOf(b: { kind: string; markdown: string; cardLayout?: CardLayout; hash?: string }): { known: boolean; layout?: CardLayout } {
  if (b.cardLayout !== undefined) return { known: true, layout: b.cardLayout };
  if (b.kind !== 'card' || b.hash === undefined) return { known: true };
  if (hashBlock(b.markdown, 'card') === b.hash) return { known: true };
  for (const layout of CARD_LAYOUTS) if (hashBlock(b.markdown, 'card', layout) === b.hash) return { known: true, layout };
  return { known: false };
}
