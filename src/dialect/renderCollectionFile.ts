// A collection as a file shows it: the editable table (renderCollectionTable) when its items came
// with it, else (the depth limit left them out) the service's output-only form (its own markdown when
// it sent one), read-only. Item
// content is laid out by the function passed in (renderBlocks), so this file imports neither.
import { renderCollectionTable } from './renderCollectionTable.js';
import { renderCollectionWith, type RenderContent } from './renderCollectionWith.js';
import type { BlockFields } from './types.js';

/** A collection's name: the block's `title`, or the `<title>` the service writes into its markdown (the block JSON has no field for it). */
function collectionName(f: Pick<BlockFields, 'title' | 'markdown'>): string | undefined {
  return f.title ?? /^<collection>\n[ \t]*<title>(.*)<\/title>/.exec(f.markdown ?? '')?.[1];
}

export function renderCollectionFile(f: BlockFields, renderContent: RenderContent): string {
  if (!f.content && f.markdown?.startsWith('<collection>')) return f.markdown;
  // The columns are the schema's keys: the block's `properties`, or the `<properties>` of the service's
  // markdown (a block read from the service has no field for them); never only the keys items use.
  const listed = /^[ \t]*<properties>(.*)<\/properties>[ \t]*$/m.exec(f.markdown ?? '')?.[1];
  const properties =
    f.properties ?? (listed === undefined ? undefined : Object.fromEntries(listed.split(',').flatMap((k) => (k.trim() ? [[k.trim(), '']] : []))));
  const named = { ...f, title: collectionName(f), ...(properties ? { properties } : {}) };
  return named.content ? renderCollectionTable({ ...named, content: named.content }, renderContent) : renderCollectionWith(named, renderContent);
}
