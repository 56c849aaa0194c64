import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// One measured figure of a benchmark, with its target, as bench/REPORT.md shows it.
export interface Figure {
  /** What was measured, e.g. "initial pull: requests ÷ (documents + folders)". */
  name: string;
  measured: number;
  unit: string;
  /** The target, e.g. { op: '<=', value: 1.05 }; omitted for figures shown for context. */
  target?: { op: '<=' | '>=' | '<' | '>' | '='; value: number };
  /** Extra context printed beside the figure (e.g. the naive figure it compares to). */
  note?: string;
}

export type Benchmark = () => Promise<Figure[]>;

export function meets(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  const { op, value } = f.target;
  switch (op) {
    case '<=':
      return f.measured <= value;
    case '>=':
      return f.measured >= value;
    case '<':
      return f.measured < value;
    case '>':
      return f.measured > value;
    case '=':
      return f.measured === value;
  }
}

/** measured ÷ target, the single comparable number of the report. */
export function ratio(f: Figure): number | undefined {
  if (!f.target || f.target.value === 0) return undefined;
  return f.measured / f.target.value;
}

/**
 * A temp folder for one benchmark, named `spacesync-bench-<run>-<name>-…`, where <run> is the id
 * bench/run.ts hands its children (SPACESYNC_BENCH_RUN). The runner then checks and removes only
 * its own run's leftovers, never a concurrent run's folders.
 */
export function benchTempDir(name: string): string {
  const run = process.env.SPACESYNC_BENCH_RUN ?? String(process.pid);
  return mkdtempSync(path.join(os.tmpdir(), `spacesync-bench-${run}-${name}-`));
}
