import { describe, expect, it } from 'vitest';
import { hashBlock } from '../merge/hashBlock.js';
import { keepBaseMarkers } from './keepBaseMarkers.js';
import type { BaseBlock, RemoteBlock } from '../types.js';

const remote = (id: string, markdown: string): RemoteBlock => ({ id, parentId: null, position: 0, level: 0, kind: 'block', type: 'text', markdown });
const base = (id: string, markdown: string): BaseBlock => ({ ...remote(id, markdown), hash: hashBlock(markdown) });
const owned = (id: string): ReadonlySet<string> => new Set(id === 'A' || id === 'B' ? [id.toLowerCase()] : []);

describe("the service's blocks against base, markers aside", () => {
  it('takes base for a block that differs only by its own marker, either way; a real change or another marker stays', () => {
    const out = keepBaseMarkers(
      [remote('A', 'text ^a'), remote('B', 'other'), remote('C', 'new text'), remote('D', 'd ^d')],
      [base('A', 'text'), base('B', 'other ^b'), base('C', 'old text'), base('D', 'd')],
      owned,
    );
    expect(out.map((b) => b.markdown)).toEqual(['text', 'other ^b', 'new text', 'd ^d']);
    const same = [remote('C', 'x')];
    expect(keepBaseMarkers(same, [base('C', 'x')], owned)).toBe(same);
  });
});
