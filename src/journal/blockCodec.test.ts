import { brotliCompressSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hashBlock } from '../core/merge/hashBlock.js';
import { BLOCK_DICTIONARY, decodeBase, decodeBlocks, encodeBase, encodeBlocks, type CodedBlock } from './blockCodec.js';
import type { BaseBlock } from './types.js';

const block = (id: string, parentId: string | null, position: number, over: Partial<CodedBlock> = {}): CodedBlock => ({
  id,
  parentId,
  position,
  level: parentId === null ? 0 : 1,
  kind: 'block',
  type: 'text',
  markdown: `text of ${id} — é ✓`,
  ...over,
});

describe('blockCodec', () => {
  it('gives back every field of blocks whose ids are upper-case UUIDs, stored as 16 bytes each', () => {
    const blocks = [
      block('0005D471-2D2D-4A17-AF2B-B5898D8E41C4', null, 0, { kind: 'page', type: 'page', markdown: 'Sub', cardLayout: 'large' }),
      block('56521320-B1CB-403D-A7EF-D58503EB3EEE', '0005D471-2D2D-4A17-AF2B-B5898D8E41C4', 0, { change: 'deleted', hash: 'abc' }),
      block('6F9ADA40-8F61-406B-AE9F-FBC3298800C1', null, 1, { change: 'edited', markdown: '' }),
    ];
    const data = encodeBlocks(blocks);
    expect(data.subarray(6, 22).toString('hex').toUpperCase()).toBe('0005D4712D2D4A17AF2BB5898D8E41C4');
    expect(decodeBlocks(data)).toEqual(blocks);
  });

  it("keeps a block's fields its line does not show, in a base and in a version alike", () => {
    const unshown = { color: '#c400ff', textAlignment: 'justify' as const, font: 'serif' as const };
    const coded = [block('b1', null, 0, { unshown, change: 'deleted' }), block('b2', null, 1)];
    expect(decodeBlocks(encodeBlocks(coded))).toEqual(coded);
    const base: BaseBlock[] = [
      { id: 'b1', parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown: 'red', hash: hashBlock('red', 'block'), unshown },
      { id: 'b2', parentId: null, position: 1, level: 0, kind: 'block', type: 'text', markdown: 'plain', hash: hashBlock('plain', 'block') },
    ];
    expect(decodeBase(encodeBase(base))).toEqual(base);
  });

  it('keeps lower-case UUIDs, other ids and a parent outside the list as they were', () => {
    const lower = [block('0005d471-2d2d-4a17-af2b-b5898d8e41c4', null, 0)];
    expect(decodeBlocks(encodeBlocks(lower))).toEqual(lower);
    const mixed = [block('0005D471-2D2D-4A17-AF2B-B5898D8E41C4', null, 0), block('b1', 'elsewhere', 3)];
    expect(decodeBlocks(encodeBlocks(mixed))).toEqual(mixed);
    expect(decodeBlocks(encodeBlocks([]))).toEqual([]);
  });

  it('writes format 2 (deflate over the shared dictionary) and still reads format 1 (brotli), as schemas 4 to 6 wrote', () => {
    const blocks = [
      block('0005D471-2D2D-4A17-AF2B-B5898D8E41C4', null, 0, { markdown: '- [ ] call the bank' }),
      block('b1', 'elsewhere', 3, { change: 'edited' }),
    ];
    const two = encodeBlocks(blocks);
    expect(two[0]).toBe(2);
    const json = inflateRawSync(two.subarray(2), { dictionary: BLOCK_DICTIONARY });
    const one = Buffer.concat([Buffer.from([1, two[1]!]), brotliCompressSync(json)]);
    expect(decodeBlocks(one)).toEqual(blocks);
    expect(decodeBlocks(two)).toEqual(blocks);
  });

  it('refuses a format it does not know instead of guessing', () => {
    const data = encodeBlocks([block('a', null, 0)]);
    data[0] = 9;
    expect(() => decodeBlocks(data)).toThrow(/unknown format \(9\)/);
  });

  it("stores a base block's hash only where hashBlock would not give it back", () => {
    const base: BaseBlock[] = [
      { id: 'a', parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown: '- item', hash: hashBlock('- item', 'block') },
      { id: 'c', parentId: null, position: 1, level: 0, kind: 'card', type: 'page', markdown: 'Card', hash: hashBlock('Card', 'card', 'large') },
      { id: 'o', parentId: null, position: 2, level: 0, kind: 'block', type: 'text', markdown: 'old', hash: 'an older hash' },
    ];
    const coded = decodeBlocks(encodeBase(base));
    expect(coded.map((b) => b.hash)).toEqual([undefined, base[1]!.hash, 'an older hash']);
    expect(decodeBase(encodeBase(base))).toEqual(base);
  });
});
