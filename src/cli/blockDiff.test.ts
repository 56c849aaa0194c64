import { describe, expect, it } from 'vitest';
import { blockLine, diffBlocks, fileBlocks, formatDiff } from './blockDiff.js';

const FILE = '---\nid: D1\n---\n# Goals\n\nShip the sync engine by Friday\n\n- first step\n- second step\n';
const COPY = '---\nid: D1\n---\n# Goals\n\nShip the sync engine next week\n\n- first step\n- second step\n- third step\n';

describe('diffBlocks', () => {
  it('finds the changed and the added block, keeping the rest as context', () => {
    const lines = diffBlocks(fileBlocks(FILE), fileBlocks(COPY));
    expect(lines.map((l) => `${l.op} ${l.block.markdown}`)).toEqual([
      'same # Goals',
      'removed Ship the sync engine by Friday',
      'added Ship the sync engine next week',
      'same - first step',
      'same - second step',
      'added - third step',
    ]);
    expect(formatDiff(lines)).toEqual([
      '  # Goals',
      '- Ship the sync engine by Friday',
      '+ Ship the sync engine next week',
      '  - second step',
      '+ - third step',
    ]);
  });

  it('forms the service treats as equal are not differences', () => {
    const a = fileBlocks('Some *emphasis* here\n\ntext   \n');
    const b = fileBlocks('Some _emphasis_ here\n\ntext\n');
    expect(diffBlocks(a, b).every((l) => l.op === 'same')).toBe(true);
  });

  it('shows the blocks inside pages with their nesting, and a page by its title', () => {
    const a = fileBlocks('<page>\n<pageTitle>Plan</pageTitle>\n<content>\ninner one\n</content>\n</page>\n');
    const b = fileBlocks('<page>\n<pageTitle>Plan</pageTitle>\n<content>\ninner two\n</content>\n</page>\n');
    expect(formatDiff(diffBlocks(a, b))).toEqual(['  <page> Plan', '-   inner one', '+   inner two']);
  });

  it('caps the lines it shows and says how many more differ', () => {
    const a = fileBlocks(Array.from({ length: 20 }, (_, i) => `old ${i}`).join('\n\n'));
    const b = fileBlocks(Array.from({ length: 20 }, (_, i) => `new ${i}`).join('\n\n'));
    const out = formatDiff(diffBlocks(a, b), 5);
    expect(out).toHaveLength(6);
    expect(out.at(-1)).toBe('  … and 35 more differing blocks');
  });

  it('one line per block: the first line, cut, with a mark when there is more', () => {
    expect(blockLine({ markdown: '```js\nconst a = 1;\n```', kind: 'block', depth: 0 })).toBe('```js …');
    expect(blockLine({ markdown: 'x'.repeat(120), kind: 'block', depth: 1 }, 10)).toBe('  xxxxxxxxxx …');
    expect(blockLine({ markdown: '', kind: 'block', depth: 0 })).toBe('(empty block)');
  });
});
