import { describe, expect, it } from 'vitest';
import { versionSummary } from './versionSummary.js';

describe('versionSummary', () => {
  it('counts texts only before as removed, only after as added, pairs of them as edits', () => {
    expect(versionSummary(['a', 'b', 'c'], ['a', 'b', 'c'])).toEqual({ added: 0, removed: 0, edited: 0 });
    expect(versionSummary(['a', 'b', 'c'], ['a', 'B', 'c'])).toEqual({ added: 0, removed: 0, edited: 1 });
    expect(versionSummary(['a', 'b', 'c'], ['a'])).toEqual({ added: 0, removed: 2, edited: 0 });
    expect(versionSummary(['a'], ['a', 'x', 'y'])).toEqual({ added: 2, removed: 0, edited: 0 });
    expect(versionSummary(['a', 'a', 'b'], ['a', 'c', 'd', 'e'])).toEqual({ added: 1, removed: 0, edited: 2 });
  });
});
