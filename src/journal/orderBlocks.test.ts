import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderBlocks } from './orderBlocks.js';
import type { BaseBlock } from './types.js';

const block = (id: string, parentId: string | null, position: number): BaseBlock => ({
  id,
  parentId,
  position,
  level: 0,
  kind: 'block',
  type: 'text',
  markdown: id,
  hash: `h-${id}`,
});

describe('orderBlocks', () => {
  it('puts parents before children and siblings by position, whatever the input order', () => {
    const blocks = [block('c2', 'p', 1), block('b', null, 2), block('p', null, 1), block('a', null, 0), block('c1', 'p', 0), block('g', 'c1', 0)];
    expect(orderBlocks('d', blocks).map((b) => b.id)).toEqual(['a', 'p', 'c1', 'g', 'c2', 'b']);
  });

  it('orders by position, not by insertion, even with gaps', () => {
    expect(orderBlocks('d', [block('x', null, 10), block('y', null, 3)]).map((b) => b.id)).toEqual(['y', 'x']);
  });

  it.each([
    ['a repeated id', [block('a', null, 0), block('a', null, 1)], /appears twice/],
    ['a missing parent', [block('a', 'nope', 0)], /parent nope/],
    ['two siblings at one position', [block('a', null, 0), block('b', null, 0)], /share position 0/],
    ['a parent cycle', [block('r', null, 0), block('a', 'b', 0), block('b', 'a', 0)], /a, b are not reachable/],
  ])('refuses %s', (_what, blocks, message) => {
    expect(() => orderBlocks('d', blocks)).toThrow(message);
  });

  it('is a permutation-invariant pre-order of any random tree', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), fc.integer(), (parents, seed) => {
        // Block i's parent is some earlier block (or the root), so the input is always a tree.
        const blocks = parents.map((p, i) => block(`b${i}`, i === 0 || p % (i + 1) === i ? null : `b${p % i}`, i));
        const shuffled = [...blocks].sort((x, y) => ((Number(x.id.slice(1)) * 7 + seed) % 13) - ((Number(y.id.slice(1)) * 7 + seed) % 13));
        const ordered = orderBlocks('d', shuffled);
        expect(ordered).toEqual(orderBlocks('d', blocks));
        const index = new Map(ordered.map((b, i) => [b.id, i]));
        for (const b of ordered) if (b.parentId !== null) expect(index.get(b.parentId)!).toBeLessThan(index.get(b.id)!);
      }),
    );
  });
});
