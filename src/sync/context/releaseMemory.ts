// A daemon that goes idle after a cycle keeps the cycle's garbage (listings, scans, parsed blocks,
// answers) in V8's old generation until the next major collection, and an idle process allocates
// too little to trigger one: its resident set stays at the cycle's peak all day. A full collection
// once the daemon goes idle gives it back (a 10,000-document mirror: 50 MiB of old generation down
// to ~20, and the pages freed return to the system; docs/benchmarks.md). Only when the heap grew by
// `minGrowthBytes` since the last one, so an idle poll that allocated little costs nothing.
import v8 from 'node:v8';
import vm from 'node:vm';

/** V8's full collection; null where it cannot be had (a runtime that refuses the flag). */
let collect: (() => void) | null | undefined;
/** The heap in use after the last collection here. */
let usedAfterLast = 0;

const heapUsed = () => v8.getHeapStatistics().used_heap_size;

function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      // The flag gives `gc` to contexts created after it; the process's own context is unchanged.
      v8.setFlagsFromString('--expose-gc');
      const gc: unknown = vm.runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Runs a full collection when the heap grew by `minGrowthBytes` since the last; true when it ran. */
export function releaseMemory(minGrowthBytes = 16 * 1024 * 1024): boolean {
  const gc = collector();
  if (!gc || heapUsed() < usedAfterLast + minGrowthBytes) return false;
  gc();
  usedAfterLast = heapUsed();
  return true;
}
