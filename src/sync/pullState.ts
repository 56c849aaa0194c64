// The pull's own bookkeeping in the journal's key/value state: the container counts last applied,
// when every container was last re-listed, and documents no listing could place.
import type { Journal } from '../journal/index.js';
import type { ContainerKey } from './remoteTypes.js';

const COUNTS = 'pull.counts';
const FULL_SCAN_AT = 'pull.fullScanAt';
const UNPLACEABLE = 'pull.unplaceable';

export function readCounts(journal: Journal): Map<ContainerKey, number> | null {
  const value = journal.getState<Record<string, number>>(COUNTS);
  return value && typeof value === 'object' ? new Map(Object.entries(value)) : null;
}

export function writeCounts(journal: Journal, counts: ReadonlyMap<ContainerKey, number>): void {
  journal.setState(COUNTS, Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
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
