// The pull's own bookkeeping in the journal's key/value state: the container counts last applied,
// when every container was last re-listed, and documents no listing could place.
import type { Journal } from '../../../journal/index.js';
import type { ContainerKey } from '../../../core/remoteTypes.js';

const COUNTS = 'pull.counts';
const FULL_SCAN_AT = 'pull.fullScanAt';
const UNPLACEABLE = 'pull.unplaceable';

export function readCounts(journal: Journal): Map<ContainerKey, number> | null {
  const value = journal.getState<Record<string, number>>(COUNTS);
  return value && typeof value === 'object' ? new Map(Object.entries(value)) : null;
}

export function writeCounts(journal: Journal, counts: ReadonlyMap<ContainerKey, number>): void {
  const value = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // Unchanged counts (an idle poll) are not written again.
  if (JSON.stringify(journal.getState(COUNTS)) === JSON.stringify(value)) return;
  journal.setState(COUNTS, value);
}

export function readFullScanAt(journal: Journal): string | null {
  return journal.getState<string>(FULL_SCAN_AT) ?? null;
}

export function writeFullScanAt(journal: Journal, at: string): void {
  journal.setState(FULL_SCAN_AT, at);
}

export function readUnplaceable(journal: Journal): Set<string> {
  const ids = journal.getState<string[]>(UNPLACEABLE);
  return new Set(Array.isArray(ids) ? ids : []);
}

export function writeUnplaceable(journal: Journal, ids: readonly string[]): void {
  if (ids.length === 0) journal.deleteState(UNPLACEABLE);
  else journal.setState(UNPLACEABLE, [...ids].sort());
}

/**
 * Moves the recorded counts along with the push's own placements (a document moved, created or
 * trashed from here), so the next pull re-lists a container only when the space changed it too:
 * without this, a move here and a move there that leave every count as it was hide the latter.
 * A container with no recorded count is listed anyway and stays so.
 */
export function shiftCounts(journal: Journal, shifts: ReadonlyArray<{ from: ContainerKey | null; to: ContainerKey }>): void {
  const counts = readCounts(journal);
  if (counts === null) return;
  let changed = false;
  const add = (key: ContainerKey, by: number) => {
    const n = counts.get(key);
    if (n === undefined) return;
    counts.set(key, n + by);
    changed = true;
  };
  for (const { from, to } of shifts) {
    if (from === to) continue;
    if (from !== null) add(from, -1);
    add(to, +1);
  }
  if (changed) writeCounts(journal, counts);
}

/**
 * Forgets the recorded counts of `keys`: the next pull lists those containers whatever the counts
 * say. For a change here whose effect on the space's membership is not known in full (a folder
 * deleted here: the service moves whatever it held then, documents the space put there meanwhile
 * included, into its parent), where shifting the counts would hide it.
 */
export function forgetCounts(journal: Journal, keys: Iterable<ContainerKey>): void {
  const counts = readCounts(journal);
  if (counts === null) return;
  let changed = false;
  for (const k of keys) changed = counts.delete(k) || changed;
  if (changed) writeCounts(journal, counts);
}
