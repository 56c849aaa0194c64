import { describe, expect, it } from 'vitest';
import { statTrusted, UNKNOWN_GRANULARITY_NS } from './statTrusted.js';

const s = 1_000_000_000n;
const stat = { size: 10, mtimeNs: 100n * s, ctimeNs: 100n * s, ino: 7n };

describe('statTrusted (the stat cache rule)', () => {
  it('trusts a recorded hash when the stat is the same and was recorded well after the file changed', () => {
    expect(statTrusted({ ...stat, recordedNs: 103n * s }, stat)).toBe(true);
  });

  it('does not trust it when the size, mtime, ctime or inode moved', () => {
    const recorded = { ...stat, recordedNs: 103n * s };
    expect(statTrusted(recorded, { ...stat, size: 11 })).toBe(false);
    expect(statTrusted(recorded, { ...stat, mtimeNs: stat.mtimeNs + 1n })).toBe(false);
    expect(statTrusted(recorded, { ...stat, ctimeNs: stat.ctimeNs + 1n })).toBe(false);
    expect(statTrusted(recorded, { ...stat, ino: 8n })).toBe(false);
  });

  it('does not trust a "racy" entry: recorded within the timestamp granularity of the change (2 s when unknown)', () => {
    // A rewrite of the same size in the same tick, right after the hash, leaves the stat as it was.
    expect(statTrusted({ ...stat, recordedNs: stat.mtimeNs + UNKNOWN_GRANULARITY_NS - 1n }, stat)).toBe(false);
    expect(statTrusted({ ...stat, ctimeNs: 102n * s, recordedNs: 103n * s }, { ...stat, ctimeNs: 102n * s })).toBe(false);
    expect(statTrusted({ ...stat, recordedNs: 100n * s + 5_000_000n }, stat, 1_000_000n)).toBe(true);
  });
});
