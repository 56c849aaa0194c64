// A clock that moves only when a test says so: timers fire in time order during advance().
import type { Clock } from '../../src/client/scheduler.js';

export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Advances to the next pending timer and fires it; false when none is pending. */
  next(): Promise<boolean>;
  pending(): number;
}

export function manualClock(start = Date.UTC(2026, 8, 5, 10, 0, 0)): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void; seq: number }>();
  const settle = async () => {
    // Let promise callbacks run between timers, as the event loop would.
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  const due = (limit: number) => [...timers.entries()].filter(([, t]) => t.at <= limit).sort((a, b) => a[1].at - b[1].at || a[1].seq - b[1].seq)[0];
  return {
    now: () => now,
    setTimer(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn, seq: id });
      return () => timers.delete(id);
    },
    async advance(ms) {
      const until = now + ms;
      await settle();
      for (let t = due(until); t; t = due(until)) {
        timers.delete(t[0]);
        now = Math.max(now, t[1].at);
        t[1].fn();
        await settle();
      }
      now = until;
      await settle();
    },
    async next() {
      await settle();
      const t = due(Infinity);
      if (!t) return false;
      timers.delete(t[0]);
      now = Math.max(now, t[1].at);
      t[1].fn();
      await settle();
      return true;
    },
    pending: () => timers.size,
  };
}
