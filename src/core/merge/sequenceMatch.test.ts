import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchSequences } from './sequenceMatch.js';

/** Length of an LCS by dynamic programming, to check the matcher is minimal on small inputs. */
function lcsLength(a: number[], b: number[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  return dp[a.length]![b.length]!;
}

function valid(a: number[], b: number[], pairs: Array<[number, number]>): void {
  for (let k = 0; k < pairs.length; k++) {
    const [i, j] = pairs[k]!;
    expect(a[i]).toBe(b[j]);
    if (k > 0) {
      expect(i).toBeGreaterThan(pairs[k - 1]![0]);
      expect(j).toBeGreaterThan(pairs[k - 1]![1]);
    }
  }
}

describe('matchSequences', () => {
  it('matches equal sequences whole and empty ones not at all', () => {
    expect(matchSequences([1, 2, 3], [1, 2, 3]).pairs).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(matchSequences([], [1]).pairs).toEqual([]);
    expect(matchSequences([1], []).pairs).toEqual([]);
  });

  it('finds a minimal diff for an insert, a delete and a change', () => {
    const m = matchSequences([1, 2, 3, 4, 5], [1, 9, 2, 4, 6, 5]);
    expect(m.pairs).toEqual([
      [0, 0],
      [1, 2],
      [3, 3],
      [4, 5],
    ]);
    expect(m.exhaustive).toBe(true);
  });

  it('handles repeated keys without unique anchors', () => {
    const a = [0, 0, 1, 0, 0, 1];
    const b = [0, 1, 0, 1, 0, 0];
    const m = matchSequences(a, b);
    valid(a, b, m.pairs);
    expect(m.pairs.length).toBe(lcsLength(a, b));
  });

  it('gives up on a region past the work bound, leaving it unmatched (still a valid match)', () => {
    const a = Array.from({ length: 400 }, (_, i) => i % 2);
    const b = Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const m = matchSequences(a, b, 1000);
    expect(m.exhaustive).toBe(false);
    valid(a, b, m.pairs);
  });

  it('property: always a valid common subsequence; minimal when the work bound is not reached', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 40 }), (a, b) => {
        const m = matchSequences(a, b);
        valid(a, b, m.pairs);
        expect(m.exhaustive).toBe(true);
        // Patience anchoring may trade minimality for speed only on keys that repeat; with unique keys it is exact.
        if (new Set(a).size === a.length && new Set(b).size === b.length) expect(m.pairs.length).toBe(lcsLength(a, b));
        else expect(m.pairs.length).toBeGreaterThanOrEqual(Math.floor(lcsLength(a, b) / 2));
      }),
      { numRuns: 500 },
    );
  });

  it('diffs 10,000 keys with scattered changes and finds every unchanged one', () => {
    const a = Array.from({ length: 10_000 }, (_, i) => i);
    const b = a.map((x) => (x % 100 === 7 ? -x - 1 : x));
    const m = matchSequences(a, b);
    expect(m.pairs.length).toBe(9_900);
  });
});
