// Which benchmarks a run of bench/run.ts runs.

/**
 * Benchmarks that run only when named, or with --all: each takes many minutes beyond the default
 * run's, and measures what only a change to its subject moves.
 */
export const ON_REQUEST: Readonly<Record<string, string>> = {
  scale: 'first and idle syncs of 10,000 and 50,000 documents, about 10 minutes',
};

export interface BenchChoice {
  /** In name order. */
  chosen: string[];
  /** Left out of a run that named none: the slow ones, unless --all. */
  skipped: string[];
  /** Benchmarks were named: the run prints its figures and writes no report. */
  named: boolean;
}

/** From the benchmarks' names (`pull` for bench/pull.bench.ts) and the command line: names (a prefix picks every one it starts), `--all`. */
export function chooseBenches(benches: readonly string[], args: readonly string[]): BenchChoice {
  const only = args.filter((a) => !a.startsWith('-'));
  const all = args.includes('--all');
  const sorted = [...benches].sort();
  if (only.length > 0) return { chosen: sorted.filter((b) => only.some((o) => b.startsWith(o))), skipped: [], named: true };
  const chosen = sorted.filter((b) => all || !(b in ON_REQUEST));
  return { chosen, skipped: sorted.filter((b) => !chosen.includes(b)), named: false };
}
