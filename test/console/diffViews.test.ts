// The console's diff views: a block's words (jsdiff), two versions block by block, and a conflict's
// three versions with the base its record keeps.
import { describe, expect, it } from 'vitest';
import { blockRows, inlineDiff } from '../../src/console/blockRows.js';
import { recordedBlocks, threeWay } from '../../src/console/threeWay.js';

const doc = (...blocks: string[]) => `---\nid: D-1\n---\n${blocks.join('\n\n')}\n`;

describe('inlineDiff', () => {
  it('cuts the newer text into what stayed, what was inserted and what was deleted, word by word', () => {
    expect(inlineDiff('Ship the sync engine', 'Ship the sync engine next week')).toEqual([
      { text: 'Ship the sync engine', op: 'same' },
      { text: ' next week', op: 'ins' },
    ]);
    expect(inlineDiff('hello world', 'hello there')).toEqual([
      { text: 'hello ', op: 'same' },
      { text: 'world', op: 'del' },
      { text: 'there', op: 'ins' },
    ]);
    expect(inlineDiff('', '')).toEqual([]);
    expect(inlineDiff('same', 'same')).toEqual([{ text: 'same', op: 'same' }]);
  });

  it('shows two texts with nothing in common as one replaced by the other', () => {
    const a = Array.from({ length: 600 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 600 }, (_, i) => `b${i}`).join(' ');
    expect(inlineDiff(a, b)).toEqual([
      { text: a, op: 'del' },
      { text: b, op: 'ins' },
    ]);
  });
});

describe('blockRows', () => {
  it('pairs an edited block, keeps blocks only one side has, and folds unchanged runs around one block of context', () => {
    const a = doc('# Title', 'one', 'two', 'three', 'four', 'old text', 'gone', 'five');
    const b = doc('# Title', 'one', 'two', 'three', 'four', 'new text', 'five', 'added');
    expect(blockRows(a, b)).toEqual([
      { row: 'gap', count: 4 },
      { row: 'same', kind: 'block', depth: 0, text: 'four' },
      { row: 'changed', kind: 'block', depth: 0, a: 'old text', b: 'new text', runs: inlineDiff('old text', 'new text') },
      { row: 'a', kind: 'block', depth: 0, text: 'gone' },
      { row: 'same', kind: 'block', depth: 0, text: 'five' },
      { row: 'b', kind: 'block', depth: 0, text: 'added' },
    ]);
  });

  it('two texts with the same blocks (the front matter aside, forms the service normalises aside) are all the same', () => {
    const rows = blockRows(doc('*x*', 'y'), '---\nid: other\n---\n_x_\n\ny\n');
    expect(rows.every((r) => r.row === 'same' || r.row === 'gap')).toBe(true);
  });
});

describe('threeWay', () => {
  const base = 'Ship the sync engine';
  const recorded = [{ id: 'B-P', base, local: 'Ship the sync engine next week', remote: 'Ship the sync engine in March' }];

  it('shows what each side did to the base of a block both changed, and marks it a conflict', () => {
    const rows = threeWay(
      doc('# Goals', 'Ship the sync engine in March', 'only here'),
      doc('# Goals', 'Ship the sync engine next week', 'mine only'),
      recorded,
    );
    expect(rows[0]).toEqual({ row: 'same', kind: 'block', depth: 0, text: '# Goals' });
    expect(rows[1]).toEqual({
      row: 'changed',
      kind: 'block',
      depth: 0,
      base,
      space: [
        { text: 'Ship the sync engine', op: 'same' },
        { text: ' in March', op: 'ins' },
      ],
      mine: [
        { text: 'Ship the sync engine', op: 'same' },
        { text: ' next week', op: 'ins' },
      ],
      conflict: true,
    });
    expect(rows[2]).toMatchObject({ row: 'changed', base: null, conflict: false, space: [{ text: 'only here', op: 'same' }] });
  });

  it('a block only one side holds, and a record without texts (older records name ids only)', () => {
    expect(recordedBlocks({ blocks: ['B-P'] })).toEqual([]);
    expect(recordedBlocks(null)).toEqual([]);
    const rows = threeWay(doc('a', 'b'), doc('a', 'b', 'c'), recordedBlocks({ blocks: ['B-P'] }));
    expect(rows.at(-1)).toEqual({ row: 'mine', kind: 'block', depth: 0, text: 'c' });
    expect(threeWay(doc('a', 'z'), doc('a'), [])).toEqual([
      { row: 'same', kind: 'block', depth: 0, text: 'a' },
      { row: 'space', kind: 'block', depth: 0, text: 'z' },
    ]);
  });
});
