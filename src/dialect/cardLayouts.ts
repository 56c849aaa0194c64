// The card layouts of the block model, as a runtime list.
import type { CardLayout } from './types.js';

export const CARD_LAYOUTS: readonly CardLayout[] = ['small', 'square', 'regular', 'large'];
