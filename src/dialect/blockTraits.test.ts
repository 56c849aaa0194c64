import { describe, expect, it } from 'vitest';
import { BLOCK_TRAITS, traitsOf, typesWhere } from './blockTraits.js';
import { renderBlockMarkdown, RENDER_HANDLERS } from './renderBlocks.js';
import { BLOCK_TYPES, type BlockType } from './types.js';

describe('block type traits', () => {
  it('has one row of traits and one renderer for every block type, and nothing else', () => {
    expect(Object.keys(BLOCK_TRAITS).sort()).toEqual([...BLOCK_TYPES].sort());
    expect(Object.keys(RENDER_HANDLERS).sort()).toEqual([...BLOCK_TYPES].sort());
  });

  it('never lets a file delete or replace a type it cannot re-create', () => {
    for (const type of typesWhere((t) => t.protected)) expect(traitsOf(type)).toMatchObject({ replaceable: false });
    expect([...typesWhere((t) => t.ownEndpoint !== null)].sort()).toEqual(['collection', 'collectionItem', 'whiteboard']);
  });

  it('knows nothing of a type this version does not know, and renders it as text', () => {
    expect(traitsOf('hologram')).toBeUndefined();
    expect(traitsOf('toString')).toBeUndefined();
    expect(renderBlockMarkdown({ type: 'hologram' as BlockType, body: 'seen', listStyle: 'bullet' })).toBe('- seen');
  });
});
