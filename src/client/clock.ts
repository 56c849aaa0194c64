// Time as the scheduler sees it: the wall clock in production, a manual one in unit tests,
// so budgets, backoff and Retry-After can be tested without waiting.

export interface Clock {
  /** Milliseconds since the epoch (the wall clock, so HTTP dates in Retry-After compare with it). */
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    // A pending budget wait must not keep a finished process alive.
    t.unref?.();
    return () => clearTimeout(t);
  },
};
