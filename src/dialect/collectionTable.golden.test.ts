// Golden collection tables: fixtures/dialect/collection-tables/<case>.json (a collection block as
// the service sends it, with the types of its properties) renders to <case>.md byte for byte, and
// the table reads back to the same values. UPDATE=1 rewrites the .md files.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCollection } from './renderBlocks.js';
import { parseCollectionTable, cellValue } from './parseCollectionTable.js';
import { cellText } from './renderCollectionTable.js';
import { segmentFile } from './segmentFile.js';
import type { Block } from './types.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/dialect/collection-tables');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

describe('golden collection tables', () => {
  it.each(cases)('%s', (name) => {
    const { types, block } = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as { types: Record<string, string>; block: Block };
    const md = renderCollection(block);
    if (process.env.UPDATE === '1') writeFileSync(path.join(dir, `${name}.md`), `${md}\n`);
    expect(`${md}\n`).toBe(readFileSync(path.join(dir, `${name}.md`), 'utf8'));
    // The same block renders to the same bytes every time.
    expect(renderCollection(structuredClone(block))).toBe(md);
    // A file holding it cuts it as one read-only segment, its exact text.
    const segs = segmentFile(`before\n\n${md}\n\nafter\n`).segments;
    expect(segs.map((s) => s.kind)).toEqual(['block', 'readonly', 'block']);
    expect(segs[1]!.text).toBe(md);
    // The table reads back: the name, the keys, and each cell's value by its property's type.
    const table = parseCollectionTable(md);
    expect(table.name).toBe(block.title);
    expect(table.keys).toEqual(Object.keys(types));
    const items = block.content ?? [];
    expect(table.rows).toHaveLength(items.length);
    items.forEach((it, r) => {
      const row = table.rows[r]!;
      expect(cellValue(row[0]!, undefined, 'title')).toEqual({ value: it.title === '' ? null : it.title });
      table.keys.forEach((k, c) => {
        const v = it.properties?.[k];
        expect(row[c + 1]).toBe(cellText(v));
        expect(cellValue(row[c + 1]!, types[k], k)).toEqual({ value: cellText(v) === '' ? null : v });
      });
    });
  });
});
