import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/dialect/index.js';
import { normalizeLine } from '../scenarios/texts.js';
import { asBlockLinks, spaceBlocks } from './anchorLinks.js';

const trees = new Map<string, Block>([
  [
    'D-ROAD',
    {
      id: 'D-ROAD',
      type: 'page',
      markdown: 'Roadmap',
      content: [
        { id: 'GOALS001', type: 'text', markdown: '# Goals for **2026**' },
        { id: 'PARA0001-X', type: 'text', markdown: 'The plan.' },
      ],
    },
  ],
]);
const space = spaceBlocks(new Map([['D-ROAD', 'Projects/Road map.md']]), trees);

describe("the checks' reading of links to blocks", () => {
  it('takes an anchor link for the block:// it stands for, by short id or heading, and drops a trailing marker', () => {
    expect(asBlockLinks('[p](<../Projects/Road map.md#^para0001>) [g](<../Projects/Road map.md#Goals%20for%202026>)', 'Unsorted/N.md', space)).toBe(
      '[p](block://PARA0001-X) [g](block://GOALS001)',
    );
    expect(asBlockLinks('The plan. ^para0001', 'Projects/Road map.md', space)).toBe('The plan.');
    for (const md of ['[x](<../Projects/Road map.md#^nothere>)', '[x](../Projects/Other.md#^para0001)', '[x](<../Projects/Road map.md>)', '5 ^ 3'])
      expect(asBlockLinks(md, 'Unsorted/N.md', space)).toBe(md);
  });
  it('O1 takes a line with an anchor link and a marker as the same text as the space holds', () => {
    expect(normalizeLine('- see [p](<../Road map.md#^para0001>) ⏳ 2026-12-01 ^a1b2c3d4')).toBe(normalizeLine('- see [p](block://PARA0001-X)'));
    expect(normalizeLine('[g](../R.md#Goals%20for%202026)')).toBe('[g](→)');
  });
});
