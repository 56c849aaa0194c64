// The service's canonical form of one block's markdown: what it answers after a write.
import { parseBlockMarkdown } from './parseBlockMarkdown.js';
import { renderBlockMarkdown } from './renderBlockMarkdown.js';
import { normalizeInline } from './normalizeInline.js';
import { isSpacesyncError } from '../errors.js';

/**
 * `_x_` → `*x*`, `==x==` → a yellow highlight, `---` → `*****`, list markers and prefixes in their
 * canonical spelling, CRLF → LF; trailing spaces are kept. Markdown that is not one valid block
 * gets only the inline and line-ending normalisations.
 */
export function normalizeMarkdown(markdown: string): string {
  try {
    return renderBlockMarkdown(parseBlockMarkdown(markdown));
  } catch (e) {
    if (!isSpacesyncError(e, 'dialect_input')) throw e;
    return normalizeInline(markdown.replace(/\r\n/g, '\n'));
  }
}
