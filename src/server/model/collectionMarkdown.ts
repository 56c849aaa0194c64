// The stored markdown of a collection block: its items rendered with the output-only tags.
// Call it again whenever the collection's name, schema or items change.
import type { Db } from '../store/openStore.js';
import { childBlocks, type BlockRow } from '../store/blocks.js';
import { parseData } from './blockData.js';
import { markdownOf } from './blockInput.js';
import { collectionFields } from './collectionFields.js';

export function collectionMarkdown(db: Db, row: BlockRow): string {
  const asBlock = (r: BlockRow): Record<string, unknown> => {
    const data = parseData(r.data);
    const kids = childBlocks(db, r.id);
    return { ...data, id: r.id, type: r.type, markdown: r.markdown, title: data.body, ...(kids.length ? { content: kids.map(asBlock) } : {}) };
  };
  return markdownOf('collection', collectionFields(db, row), childBlocks(db, row.id).map(asBlock));
}
