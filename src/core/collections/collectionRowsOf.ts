// The item id of each row of each collection table a document's file shows, with the hash of the
// base block the rows belong to: what the journal keeps so a later push knows which row is which
// item without ids in the file (as base blocks tie lines to block ids).
import type { Block } from '../../dialect/index.js';
import type { BaseBlock } from '../types.js';

export interface CollectionRows {
  /** The collection block's id. */
  id: string;
  /** The base block's hash these rows were recorded with: rows of another base are not these. */
  hash: string;
  /** Item ids in the table's row order. */
  rows: string[];
}

export function collectionRowsOf(root: Block, base: readonly BaseBlock[]): CollectionRows[] {
  const hashes = new Map(base.filter((b) => b.type === 'collection').map((b) => [b.id, b.hash]));
  const out: CollectionRows[] = [];
  const walk = (list: readonly Block[] | undefined) => {
    for (const b of list ?? []) {
      if (b.type === 'collection') {
        const hash = hashes.get(b.id);
        if (hash !== undefined && b.content) out.push({ id: b.id, hash, rows: b.content.map((it) => it.id) });
      } else walk(b.content);
    }
  };
  walk(root.content);
  return out;
}
