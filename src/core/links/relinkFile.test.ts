import { describe, expect, it } from 'vitest';
import { hashBlock } from '../merge/hashBlock.js';
import { relinkBase, relinkFile } from './relinkFile.js';
import type { BaseBlock } from '../types.js';

const block = (id: string, markdown: string, type = 'text', position = 0): BaseBlock => ({
  id,
  parentId: null,
  position,
  level: 0,
  kind: 'block',
  type,
  markdown,
  hash: hashBlock(markdown, 'block'),
});
const moved = new Map([['Projects/Roadmap.md', 'Archive/Plan 2.md']]);

describe('relinking a file after documents moved', () => {
  const base = [
    block('a', 'See [plan](../Projects/Roadmap.md) and [x](other.md).', 'text', 0),
    block('b', 'untouched [plan](https://example.org/Roadmap.md)', 'text', 1),
    block('c', '```\n[plan](../Projects/Roadmap.md)\n```', 'code', 2),
  ];
  const text = `---\nid: D\n---\n${base.map((b) => b.markdown).join('\n\n')}\n`;

  it('rewrites only the links to the moved file, in base and in the file, every other byte kept', () => {
    const next = relinkBase(base, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved);
    expect(next.map((b) => b.markdown)).toEqual(['See [plan](<../Archive/Plan 2.md>) and [x](other.md).', base[1]!.markdown, base[2]!.markdown]);
    expect(next[0]!.hash).toBe(hashBlock(next[0]!.markdown, 'block'));
    expect(next[1]).toBe(base[1]);
    expect(relinkFile(text, base, next, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved)).toBe(
      text.replace('../Projects/Roadmap.md)', '<../Archive/Plan 2.md>)'),
    );
  });

  it('a moved file keeps its links pointing at the same documents from its new folder; a link to a file that is no document stays as the space holds it', () => {
    const next = relinkBase(base, 'Unsorted/Notes.md', 'Notes.md', new Map(), (p) => p === 'Projects/Roadmap.md');
    expect(next[0]!.markdown).toBe('See [plan](Projects/Roadmap.md) and [x](other.md).');
  });

  it("a block base holds in the service's form (an uploaded image) is the file's block all the same: the links are rewritten (chaos seed 158051554)", () => {
    const withImage = [...base, block('d', '![Image](Notes.assets/img.png)', 'image', 3)];
    const file = `${text}\n![](<Notes.assets/img.png>)\n`;
    const next = relinkBase(withImage, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved);
    expect(relinkFile(file, withImage, next, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved)).toBe(
      file.replace('../Projects/Roadmap.md)', '<../Archive/Plan 2.md>)'),
    );
  });

  it('nothing to relink gives the same base; a file that does not hold the base is left alone', () => {
    expect(relinkBase(base, 'Unsorted/Notes.md', 'Unsorted/Notes.md', new Map())).toBe(base);
    const next = relinkBase(base, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved);
    expect(relinkFile(text.replace('See', 'Saw'), base, next, 'Unsorted/Notes.md', 'Unsorted/Notes.md', moved)).toBeNull();
  });
});
