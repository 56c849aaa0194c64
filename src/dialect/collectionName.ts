// A collection's name: the block's `title`, or the `<title>` the service writes into its markdown
// (the block JSON has no field for it).
import type { BlockFields } from './types.js';

export function collectionName(f: Pick<BlockFields, 'title' | 'markdown'>): string | undefined {
  return f.title ?? /^<collection>\n[ \t]*<title>(.*)<\/title>/.exec(f.markdown ?? '')?.[1];
}
