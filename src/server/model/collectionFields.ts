// What a collection block renders from: its stored fields, its name as the title and the schema's
// property keys (so `<properties>` lists every key, not only those items happen to use).
import type { Db } from '../store/openStore.js';
import type { BlockRow } from '../store/blocks.js';
import { getCollection } from '../store/collections.js';
import { parseData, type BlockData } from './blockData.js';
import { readSchema } from './collectionSchema.js';

export function collectionFields(db: Db, row: Pick<BlockRow, 'id' | 'data'>): BlockData {
  const data = parseData(row.data);
  const col = getCollection(db, row.id);
  if (!col) return data;
  const schema = readSchema(col.schema, col.name);
  return { ...data, title: col.name, properties: Object.fromEntries(schema.properties.map((p) => [p.key, ''])) };
}
