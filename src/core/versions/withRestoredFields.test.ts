import { describe, expect, it } from 'vitest';
import type { ChangeSet, NewBlockSpec } from '../merge/changeSet.js';
import { restoredBlocksOf, withRestoredFields, type RestoredBlock } from './withRestoredFields.js';
import { unshownFieldsOf } from './unshownFields.js';

const spec = (ref: string, markdown: string, over: Partial<NewBlockSpec> = {}): NewBlockSpec => ({
  ref,
  kind: 'block',
  type: 'text',
  markdown,
  children: [],
  ...over,
});
const changes = (blocks: NewBlockSpec[]): ChangeSet => {
  const flat = (list: NewBlockSpec[]): NewBlockSpec[] => list.flatMap((s) => [s, ...flat(s.children)]);
  return {
    edits: [],
    moves: [],
    inserts: [{ anchor: { start: null }, blocks }],
    lateMoves: [],
    deletes: [],
    removedBlocks: 0,
    expected: flat(blocks).map((s, i) => ({ id: s.ref, parentId: null, position: i, level: 0, kind: s.kind, type: s.type, markdown: s.markdown })),
  };
};
const exact = (a: string, b: string) => a.trim() === b.trim();

describe('unshownFieldsOf', () => {
  it("takes the fields no line shows, and a rich URL's own; none for a block that has none", () => {
    expect(
      unshownFieldsOf({ id: 'a', type: 'text', markdown: 'Serif', font: 'serif', color: '#0400ff', textAlignment: 'justify', listStyle: 'bullet' }),
    ).toEqual({
      font: 'serif',
      color: '#0400ff',
      textAlignment: 'justify',
    });
    expect(unshownFieldsOf({ id: 'b', type: 'richUrl', url: 'https://x/a', title: 'A', description: 'About', markdown: '[A](https://x/a)' })).toEqual({
      url: 'https://x/a',
      title: 'A',
      description: 'About',
    });
    expect(unshownFieldsOf({ id: 'c', type: 'image', url: 'https://x/p.png', markdown: '![Image](https://x/p.png)' })).toBeUndefined();
  });
});

describe('withRestoredFields', () => {
  const noted: RestoredBlock[] = restoredBlocksOf([
    { kind: 'block', type: 'text', markdown: 'Red', unshown: { color: '#ff0000' } },
    { kind: 'block', type: 'text', markdown: 'plain' },
    { kind: 'block', type: 'text', markdown: 'Red', unshown: { color: '#00ff00' } },
    { kind: 'block', type: 'richUrl', markdown: '[A](https://x/a)', unshown: { url: 'https://x/a', title: 'A' } },
    { kind: 'card', type: 'page', markdown: 'Card', unshown: { color: '#0000ff' } },
  ]);

  it('notes only the blocks whose lines do not say all of them', () => {
    expect(noted.map((n) => n.markdown)).toEqual(['Red', 'Red', '[A](https://x/a)', 'Card']);
  });

  it('gives each new block that is a noted one its fields, in order, and its type where the line reads as another', () => {
    const cs = changes([
      spec('new:1', 'Red'),
      spec('new:2', 'Red'),
      spec('new:3', '[A](https://x/a) '),
      spec('new:4', 'Card', { kind: 'card', type: 'page', children: [spec('new:5', 'Red')] }),
      spec('new:6', 'not noted'),
    ]);
    const out = withRestoredFields(cs, noted, exact);
    const sent = out.inserts[0]!.blocks;
    expect(sent.map((s) => [s.ref, s.type, s.unshown])).toEqual([
      ['new:1', 'text', { color: '#ff0000' }],
      ['new:2', 'text', { color: '#00ff00' }],
      ['new:3', 'richUrl', { url: 'https://x/a', title: 'A' }],
      ['new:4', 'page', { color: '#0000ff' }],
      ['new:6', 'text', undefined],
    ]);
    // Each noted block is given once: a third "Red" is a new block of the file's own.
    expect(sent[3]!.children[0]!.unshown).toBeUndefined();
    expect(out.expected.map((r) => [r.id, r.type, r.unshown])).toEqual([
      ['new:1', 'text', { color: '#ff0000' }],
      ['new:2', 'text', { color: '#00ff00' }],
      ['new:3', 'richUrl', { url: 'https://x/a', title: 'A' }],
      ['new:4', 'page', { color: '#0000ff' }],
      ['new:5', 'text', undefined],
      ['new:6', 'text', undefined],
    ]);
  });

  it('changes nothing when no new block is a noted one', () => {
    const cs = changes([spec('new:1', 'other')]);
    expect(withRestoredFields(cs, noted, exact)).toBe(cs);
    expect(withRestoredFields(cs, [], exact)).toBe(cs);
  });
});
