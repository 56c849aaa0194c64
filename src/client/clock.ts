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
    // A budget wait exists only while a request is queued, so it keeps the process alive: a
    // program awaiting that request must not exit half way. close() cancels it.
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};
