import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseMemory } from './releaseMemory.js';

const heapUsed = () => v8.getHeapStatistics().used_heap_size;
const MiB = 1024 * 1024;

/** Allocates about `mib` MiB of small objects that are garbage as soon as it returns. */
function makeGarbage(mib: number): number {
  const kept: Array<{ i: number; s: string }> = [];
  for (let i = 0; i < mib * 12_000; i++) kept.push({ i, s: `item ${i}` });
  return kept.length; // everything survived young collections (it was all held): old garbage now
}

describe('releaseMemory', () => {
  it('collects the garbage an operation left once the heap grew by the threshold, and not again until it grows anew', () => {
    releaseMemory(0); // a baseline: the test runner's own garbage
    expect(makeGarbage(60)).toBeGreaterThan(0);
    const before = heapUsed();
    expect(releaseMemory(16 * MiB)).toBe(true);
    expect(before - heapUsed()).toBeGreaterThan(30 * MiB);
    expect(releaseMemory(16 * MiB)).toBe(false);
  });
});
