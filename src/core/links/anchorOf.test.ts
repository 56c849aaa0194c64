import { describe, expect, it } from 'vitest';
import { anchorOf, blockAtFragment, shortIdsOf } from './anchorOf.js';
import { hashBlock } from '../merge/hashBlock.js';
import { readFragment, writeFragment } from './linkDocuments.js';
import type { BaseBlock } from '../types.js';

const block = (id: string, markdown: string, type = 'text', kind: BaseBlock['kind'] = 'block'): BaseBlock => ({
  id,
  parentId: null,
  position: 0,
  level: 0,
  kind,
  type,
  markdown,
  hash: hashBlock(markdown, kind),
});

describe('short ids', () => {
  it('are the first 8 letters and digits, lower case; the whole id where two blocks start alike', () => {
    const s = shortIdsOf(['A1B2-C3D4-E5F6', 'a1b2c3d4-9999', '77aa-bb', 'Z']);
    expect(s.get('A1B2-C3D4-E5F6')).toBe('a1b2c3d4e5f6');
    expect(s.get('a1b2c3d4-9999')).toBe('a1b2c3d49999');
    expect(s.get('77aa-bb')).toBe('77aabb');
    expect(s.get('Z')).toBe('z');
  });
});

describe('fragments', () => {
  it('escape what a destination cannot hold; letters of any script and `^short` stay', () => {
    expect(writeFragment('Goals for 2026')).toBe('Goals%20for%202026');
    expect(writeFragment('Café (draft) 100%')).toBe('Café%20%28draft%29%20100%25');
    expect(writeFragment('^a1b2c3d4')).toBe('^a1b2c3d4');
    for (const f of ['Goals for 2026', 'Café (draft) 100%', '^a1b2c3d4', 'a<b>c "d"']) expect(readFragment(writeFragment(f))).toBe(f);
    expect(readFragment('bad%ZZ')).toBeNull();
    expect(readFragment('^')).toBeNull();
  });
});

describe('the anchor of a block', () => {
  const base = [
    block('H-GOALS-1', '# Goals for **2026**'),
    block('P-PARA-01', 'a paragraph'),
    block('H-NOTE-01', '## Notes'),
    block('H-NOTE-02', '### notes!'),
    block('H-HASH-01', '# C# tips'),
    block('C-CODE-01', '```\nx\n```', 'code'),
  ];
  it('is the plain text of a heading no other heading reads the same, else ^ and its short id', () => {
    expect(anchorOf('H-GOALS-1', base)).toBe('Goals for 2026');
    expect(anchorOf('P-PARA-01', base)).toBe('^ppara01');
    expect(anchorOf('H-NOTE-01', base)).toBe('^hnote01');
    expect(anchorOf('H-NOTE-02', base)).toBe('^hnote02');
    expect(anchorOf('H-HASH-01', base)).toBe('^hhash01');
    expect(anchorOf('C-CODE-01', base)).toBe('^ccode01');
    expect(anchorOf('NOPE', base)).toBeUndefined();
  });
  it('of a heading is read past its own marker', () => {
    expect(anchorOf('H-NOTE-01', [block('H-NOTE-01', '## Notes ^hnote01'), block('X', 'x')])).toBe('Notes');
  });
  it('reads typed fragments back: a short id, a heading by its text or by its slug', () => {
    expect(blockAtFragment(base, '^ppara01')).toBe('P-PARA-01');
    expect(blockAtFragment(base, 'Goals for 2026')).toBe('H-GOALS-1');
    expect(blockAtFragment(base, 'goals-for-2026')).toBe('H-GOALS-1');
    expect(blockAtFragment(base, 'notes')).toBe('H-NOTE-01');
    expect(blockAtFragment(base, 'Nothing here')).toBeUndefined();
    expect(blockAtFragment(base, '^zzzz')).toBeUndefined();
  });
});
