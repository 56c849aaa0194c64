// The hash a base block carries: of its canonical markdown, so forms the service normalises hash alike.
import { createHash } from 'node:crypto';
import { canonicalMarkdown } from '../dialect/index.js';

export function hashBlock(markdown: string, kind = 'block'): string {
  return createHash('sha256').update(`${kind}\u0000${canonicalMarkdown(markdown)}`).digest('hex').slice(0, 32);
}
