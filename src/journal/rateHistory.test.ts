import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from './Journal.js';
import { openJournal } from './openJournal.js';
import { saveDaemonStats, type ClientCounters } from './daemonStatus.js';
import { RATE_HISTORY_KEY, RATE_HISTORY_MINUTES, readRateHistory } from './rateHistory.js';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const budgets: ClientCounters['budgets'] = {
  space: { used: 1, limit: 100, windowMs: 60_000 },
  address: { used: 1, limit: 50, windowMs: 10_000 },
  blocks: { used: 1, limit: 20_000, windowMs: 60_000 },
};
const counters = (total: number, blocksSpent: number, rateLimited = 0): ClientCounters => ({
  total,
  blocksSpent,
  rateLimited,
  retries: 0,
  errors: {},
  budgets,
});
const save = (at: string, c: ClientCounters, startedAt = '2026-11-21T09:00:00.000Z', pid = 7) =>
  saveDaemonStats(j, { stats: c, startedAt, now: new Date(at), pid });
const spent = (now: string) => readRateHistory(j, new Date(now)).filter((m) => m.requests + m.blocks + m.rateLimited > 0);

describe('the last hour of requests and blocks, minute by minute', () => {
  it("adds each save's difference from the one before to the minute it was saved in", () => {
    save('2026-11-21T10:00:10Z', counters(10, 100));
    save('2026-11-21T10:00:50Z', counters(14, 130, 1));
    save('2026-11-21T10:02:05Z', counters(20, 130, 1));
    expect(spent('2026-11-21T10:03:00Z')).toEqual([
      { minute: '2026-11-21T10:00:00.000Z', requests: 14, blocks: 130, rateLimited: 1 },
      { minute: '2026-11-21T10:02:00.000Z', requests: 6, blocks: 0, rateLimited: 0 },
    ]);
    const hour = readRateHistory(j, new Date('2026-11-21T10:03:00Z'));
    expect(hour).toHaveLength(RATE_HISTORY_MINUTES);
    expect(hour.at(-1)!.minute).toBe('2026-11-21T10:03:00.000Z');
    expect(hour[0]!.minute).toBe('2026-11-21T09:04:00.000Z');
  });

  it('a new daemon (another start, another pid) counts from zero', () => {
    save('2026-11-21T10:00:10Z', counters(50, 500));
    save('2026-11-21T10:01:10Z', counters(3, 20), '2026-11-21T10:01:00.000Z', 8);
    expect(spent('2026-11-21T10:02:00Z').map((m) => m.requests)).toEqual([50, 3]);
  });

  it('keeps no minute older than the hour, and an idle save writes nothing', () => {
    save('2026-11-21T10:00:10Z', counters(5, 5));
    save('2026-11-21T11:30:00Z', counters(6, 5));
    expect(spent('2026-11-21T11:30:00Z')).toEqual([{ minute: '2026-11-21T11:30:00.000Z', requests: 1, blocks: 0, rateLimited: 0 }]);
    expect(j.getState<unknown[]>(RATE_HISTORY_KEY)).toHaveLength(1);
    const stored = JSON.stringify(j.getState(RATE_HISTORY_KEY));
    save('2026-11-21T11:30:40Z', counters(6, 5));
    expect(JSON.stringify(j.getState(RATE_HISTORY_KEY))).toBe(stored);
  });

  it('reads zeros from nothing or a foreign-shaped record', () => {
    j.setState(RATE_HISTORY_KEY, [{ minute: 3 }, 'x']);
    expect(spent('2026-11-21T10:00:00Z')).toEqual([]);
  });
});
