// The hash a base block carries: of its canonical markdown, so forms the service normalises hash
// alike; a card's hash also covers its layout (none included), which the journal keeps nowhere else.
import { createHash } from 'node:crypto';
import { canonicalMarkdown } from '../dialect/index.js';

export function hashBlock(markdown: string, kind = 'block', cardLayout?: string): string {
  const layout = kind === 'card' ? `\u0000layout:${cardLayout ?? ''}` : '';
  return createHash('sha256')
    .update(`${kind}\u0000${canonicalMarkdown(markdown)}${layout}`)
    .digest('hex')
    .slice(0, 32);
}
