import { describe, expect, it } from 'vitest';
import { baseAfter, blocksOfAnswer } from './baseAfter.js';
import { planSync } from '../push/plan.js';
import { readYields } from '../push/refs.js';
import { baseOf, blk, pg, runMerge } from '../../../test/support/coreSupport.js';

describe('baseAfter', () => {
  const base = baseOf([
    ['A', 'Alpha'],
    ['B', 'Beta'],
  ]);
  const { cs } = runMerge(base, [blk('Alpha, edited'), pg('Card', [blk('in')], 'card'), blk('Beta')], undefined);

  it("records the expected document with the new ids and the service's own markdown", () => {
    const [put, post] = planSync({ documents: [{ doc: 'D', name: 'Doc', changes: cs }] });
    const postAnswer = { items: [{ id: 'CARD', type: 'page', textStyle: 'card', markdown: 'Card', content: [{ id: 'IN', type: 'text', markdown: 'in' }] }] };
    const ids = readYields(post!, postAnswer).ids;
    const answered = new Map([...blocksOfAnswer({ items: [{ id: 'A', type: 'text', markdown: 'Alpha, edited' }] }), ...blocksOfAnswer(postAnswer)]);
    expect(put!.path).toBe('/blocks');
    const next = baseAfter(cs, 'D', ids, answered)!;
    expect(next.map((b) => [b.id, b.parentId, b.position, b.kind, b.markdown])).toEqual([
      ['A', null, 0, 'block', 'Alpha, edited'],
      ['CARD', null, 1, 'card', 'Card'],
      ['IN', 'CARD', 0, 'block', 'in'],
      ['B', null, 2, 'block', 'Beta'],
    ]);
    expect(next.every((b) => b.hash.length > 0)).toBe(true);
  });

  it("gives nothing when a new block's id is unknown, so the shell re-reads", () => {
    expect(baseAfter(cs, 'D', new Map())).toBeUndefined();
  });
});

describe('blocksOfAnswer', () => {
  it("takes no text from an answer that names only ids (PUT /blocks/move), so the base keeps the blocks' own", () => {
    expect(blocksOfAnswer({ items: [{ id: 'A' }, { id: 'B' }] })).toEqual(new Map());
    expect(blocksOfAnswer({ items: [{ id: 'A', type: 'text', markdown: 'Alpha' }] })).toEqual(new Map([['A', 'Alpha']]));
  });
});
