// The real dialect, as the decisions use it: canonical equality and what one block's markdown becomes.
import { isSpacesyncError } from '../../errors.js';
import { markdownEquals, parseBlockMarkdown } from '../../dialect/index.js';
import type { Classification, CoreDialect } from '../types.js';

export function classifyBlockMarkdown(markdown: string): Classification {
  try {
    return { type: parseBlockMarkdown(markdown).type };
  } catch (e) {
    if (isSpacesyncError(e, 'dialect_input')) return { problem: e.message };
    throw e;
  }
}

export const coreDialect: CoreDialect = { equals: markdownEquals, classify: classifyBlockMarkdown };
