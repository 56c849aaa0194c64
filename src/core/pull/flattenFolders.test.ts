import { describe, expect, it } from 'vitest';
import { flattenFolders } from './flattenFolders.js';

describe('flattenFolders', () => {
  it('flattens the tree with parents from the nesting and counts for every container', () => {
    const { folders, counts } = flattenFolders([
      { id: 'unsorted', name: 'Unsorted', documentCount: 3, folders: [] },
      { id: 'trash', name: 'Recently Deleted', documentCount: 1 },
      { id: 'P', name: 'Projects', documentCount: 2, folders: [{ id: 'A', name: 'Archive', documentCount: 0, folders: [{ id: 'O', name: 'Old' }] }] },
    ]);
    expect(folders).toEqual([
      { id: 'P', name: 'Projects', parentId: null, documentCount: 2 },
      { id: 'A', name: 'Archive', parentId: 'P', documentCount: 0 },
      { id: 'O', name: 'Old', parentId: 'A', documentCount: 0 },
    ]);
    expect(Object.fromEntries(counts)).toEqual({ unsorted: 3, trash: 1, P: 2, A: 0, O: 0 });
  });
});
