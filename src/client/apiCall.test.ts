import { describe, expect, it } from 'vitest';
import { encodeQuery, seg } from './apiCall.js';

describe('encodeQuery', () => {
  it('repeats array keys, writes booleans as true/false and leaves out undefined', () => {
    expect(encodeQuery({ documentIds: ['a', 'b'], fetchBlocks: false, maxDepth: -1, location: undefined, q: 'a b&c' })).toBe(
      '?documentIds=a&documentIds=b&fetchBlocks=false&maxDepth=-1&q=a+b%26c',
    );
    expect(encodeQuery({})).toBe('');
    expect(encodeQuery(undefined)).toBe('');
    expect(seg('A/B')).toBe('A%2FB');
  });
});
