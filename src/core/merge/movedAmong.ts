// Which blocks of a sibling list must move to reach a wanted order: those from another parent, and
// those outside the longest run already in order (so the fewest move).

export interface Placed {
  id: string;
  /** Where the block is now (or was in base). */
  parentId: string | null;
  position: number;
}

/** `items` in the wanted order under `parentId`; returns the ids that have to move. */
export function movedAmong(items: readonly Placed[], parentId: string | null): Set<string> {
  const moved = new Set<string>();
  // The usual case, nothing moved, without allocating.
  let inOrder = true;
  for (let i = 0; i < items.length && inOrder; i++) {
    inOrder = items[i]!.parentId === parentId && (i === 0 || items[i - 1]!.position < items[i]!.position);
  }
  if (inOrder) return moved;
  const same: Placed[] = [];
  for (const it of items) {
    if (it.parentId === parentId) same.push(it);
    else moved.add(it.id);
  }
  // Longest increasing subsequence of current positions: those stay, the rest move.
  const tails: number[] = [];
  const prev = new Int32Array(same.length).fill(-1);
  for (let i = 0; i < same.length; i++) {
    const v = same[i]!.position;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (same[tails[mid]!]!.position < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const stay = new Set<number>();
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = prev[k]!) stay.add(k);
  same.forEach((it, i) => {
    if (!stay.has(i)) moved.add(it.id);
  });
  return moved;
}
