// A longest-common-subsequence match of two key sequences with a bound on work: unique keys anchor
// the match (patience), Myers' O(ND) fills the regions between, and a region too costly to diff
// is left unmatched (the caller pairs it less minimally, never wrongly).

export interface SequenceMatch {
  /** Matched index pairs (a index, b index), both strictly increasing. */
  pairs: Array<[number, number]>;
  /** False when some region was left unmatched because the work bound was reached. */
  exhaustive: boolean;
}

/** Default work bound: about (length of a region) × (edit distance) steps summed over regions. */
export const DEFAULT_MAX_WORK = 4_000_000;
const MAX_DEPTH = 48;
/** Edit distance beyond which one region is not diffed (bounds the trace's memory, about 8 MB). */
const MAX_D = 1000;
/** Regions up to this many keys (both sides) are diffed exactly first. */
const SMALL_REGION = 2000;

export function matchSequences(a: ArrayLike<number>, b: ArrayLike<number>, maxWork = DEFAULT_MAX_WORK): SequenceMatch {
  const pairs: Array<[number, number]> = [];
  const state = { work: maxWork, exhaustive: true };
  region(a, 0, a.length, b, 0, b.length, pairs, state, 0);
  return { pairs, exhaustive: state.exhaustive };
}

interface State {
  work: number;
  exhaustive: boolean;
}

function region(
  a: ArrayLike<number>,
  aLo: number,
  aHi: number,
  b: ArrayLike<number>,
  bLo: number,
  bHi: number,
  out: Array<[number, number]>,
  state: State,
  depth: number,
): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.push([aLo++, bLo++]);
  let tail = 0;
  while (aHi - tail > aLo && bHi - tail > bLo && a[aHi - 1 - tail] === b[bHi - 1 - tail]) tail++;
  const tailStartA = aHi - tail;
  const tailStartB = bHi - tail;
  if (aLo < tailStartA && bLo < tailStartB) {
    // Small regions get an exact diff; unique anchors only cut large ones down (they can miss a
    // longer match around one far-moved unique line, which small regions cannot afford).
    const small = tailStartA - aLo + tailStartB - bLo <= SMALL_REGION;
    if (small && myers(a, aLo, tailStartA, b, bLo, tailStartB, out, state, true)) {
      for (let k = 0; k < tail; k++) out.push([tailStartA + k, tailStartB + k]);
      return;
    }
    const anchors = depth < MAX_DEPTH ? uniqueAnchors(a, aLo, tailStartA, b, bLo, tailStartB) : [];
    if (anchors.length > 0) {
      let pa = aLo;
      let pb = bLo;
      for (const [ia, ib] of anchors) {
        region(a, pa, ia, b, pb, ib, out, state, depth + 1);
        out.push([ia, ib]);
        pa = ia + 1;
        pb = ib + 1;
      }
      region(a, pa, tailStartA, b, pb, tailStartB, out, state, depth + 1);
    } else {
      myers(a, aLo, tailStartA, b, bLo, tailStartB, out, state);
    }
  }
  for (let k = 0; k < tail; k++) out.push([tailStartA + k, tailStartB + k]);
}

/** Keys that occur exactly once in both ranges, kept where they agree in order (longest increasing run). */
function uniqueAnchors(a: ArrayLike<number>, aLo: number, aHi: number, b: ArrayLike<number>, bLo: number, bHi: number): Array<[number, number]> {
  let maxKey = 0;
  let minKey = 0;
  for (let i = aLo; i < aHi; i++) {
    if (a[i]! > maxKey) maxKey = a[i]!;
    if (a[i]! < minKey) minKey = a[i]!;
  }
  for (let j = bLo; j < bHi; j++) {
    if (b[j]! > maxKey) maxKey = b[j]!;
    if (b[j]! < minKey) minKey = b[j]!;
  }
  // Dense small keys (interned ones): counted in typed arrays, far cheaper than a map.
  if (minKey >= 0 && maxKey < 4 * (aHi - aLo + bHi - bLo) + 4096) return uniqueAnchorsDense(a, aLo, aHi, b, bLo, bHi, maxKey + 1);
  const seen = new Map<number, { ca: number; cb: number; ia: number; ib: number }>();
  for (let i = aLo; i < aHi; i++) {
    const e = seen.get(a[i]!);
    if (e) e.ca++;
    else seen.set(a[i]!, { ca: 1, cb: 0, ia: i, ib: -1 });
  }
  for (let j = bLo; j < bHi; j++) {
    const e = seen.get(b[j]!);
    if (e) {
      e.cb++;
      e.ib = j;
    }
  }
  const candidates: Array<[number, number]> = [];
  for (const e of seen.values()) if (e.ca === 1 && e.cb === 1) candidates.push([e.ia, e.ib]);
  if (candidates.length === 0) return [];
  candidates.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(candidates);
}

function uniqueAnchorsDense(
  a: ArrayLike<number>,
  aLo: number,
  aHi: number,
  b: ArrayLike<number>,
  bLo: number,
  bHi: number,
  size: number,
): Array<[number, number]> {
  const ca = new Uint8Array(size);
  const cb = new Uint8Array(size);
  const ib = new Int32Array(size);
  for (let i = aLo; i < aHi; i++) if (ca[a[i]!]! < 2) ca[a[i]!]!++;
  for (let j = bLo; j < bHi; j++) {
    const k = b[j]!;
    if (cb[k]! < 2) cb[k]!++;
    ib[k] = j;
  }
  const candidates: Array<[number, number]> = [];
  for (let i = aLo; i < aHi; i++) {
    const k = a[i]!;
    if (ca[k] === 1 && cb[k] === 1) candidates.push([i, ib[k]!]);
  }
  return candidates.length === 0 ? [] : longestIncreasing(candidates);
}

/** The longest subsequence of pairs (sorted by first) whose second component increases. O(n log n). */
function longestIncreasing(pairs: Array<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    const v = pairs[i]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out: Array<[number, number]> = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) out.push(pairs[k]!);
  return out.reverse();
}

/**
 * Myers' greedy LCS with the trace kept for backtracking. Past the work bound it gives up: returns
 * false and, unless `tentative`, marks the match not exhaustive (the region stays unmatched).
 */
function myers(
  a: ArrayLike<number>,
  aLo: number,
  aHi: number,
  b: ArrayLike<number>,
  bLo: number,
  bHi: number,
  out: Array<[number, number]>,
  state: State,
  tentative = false,
): boolean {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const max = n + m;
  const maxD = Math.min(max, MAX_D, Math.floor(state.work / Math.max(1, max)));
  const offset = maxD + 1;
  const trace: Int32Array[] = [];
  let v = new Int32Array(2 * offset + 1);
  let found = -1;
  for (let d = 0; d <= maxD; d++) {
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    trace.push(next);
    v = next;
    state.work -= max;
    if (found >= 0) break;
  }
  if (found < 0) {
    if (!tentative) state.exhaustive = false;
    return false;
  }
  // Backtrack from (n, m) through the saved frontiers, collecting diagonal (matched) steps.
  const matched: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prevV = trace[d - 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && prevV[offset + k - 1]! < prevV[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = prevV[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) matched.push([aLo + --x, bLo + --y]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) matched.push([aLo + --x, bLo + --y]);
  for (let i = matched.length - 1; i >= 0; i--) out.push(matched[i]!);
  return true;
}
