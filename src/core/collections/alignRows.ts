// Which row of one table is which row of another, with no ids in the rows: rows equal in every
// cell are matched as a longest common subsequence (matchSequences), then, between two matches,
// the rows left on both sides are paired in order when they share a non-empty cell (an edited row
// keeps its title or another value). What stays unpaired was removed (first table) or added (second).
import { matchSequences } from '../merge/sequenceMatch.js';

/** For each row of `a`, the index of its row in `b`, or undefined when it has none. */
export function alignRows(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): Array<number | undefined> {
  const codes = new Map<string, number>();
  const code = (row: readonly string[]) => {
    const k = JSON.stringify(row);
    let c = codes.get(k);
    if (c === undefined) codes.set(k, (c = codes.size));
    return c;
  };
  const { pairs } = matchSequences(a.map(code), b.map(code));
  const out: Array<number | undefined> = new Array<number | undefined>(a.length).fill(undefined);
  for (const [i, j] of pairs) out[i] = j;
  const shared = (x: readonly string[], y: readonly string[]) => x.filter((c, k) => c !== '' && c === y[k]).length;
  // The gaps between matches (and before the first, after the last).
  const bounds: Array<[number, number]> = [[-1, -1], ...pairs, [a.length, b.length]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [a0, b0] = bounds[g]!;
    const [a1, b1] = bounds[g + 1]!;
    let next = b0 + 1;
    for (let i = a0 + 1; i < a1; i++) {
      let best: number | undefined;
      let bestScore = 0;
      for (let j = next; j < b1; j++) {
        const s = shared(a[i]!, b[j]!);
        if (s > bestScore) {
          best = j;
          bestScore = s;
        }
      }
      if (best !== undefined) {
        out[i] = best;
        next = best + 1;
      }
    }
  }
  return out;
}
