// Exponential backoff with full jitter: a uniformly random wait below an exponentially growing
// cap, so that clients which failed together do not retry together.

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

/** The wait before retry number `attempt` (1 = first retry). `random` returns [0, 1). */
export function fullJitter(attempt: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
