import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from './Journal.js';
import { openJournal } from './openJournal.js';
import {
  KEPT_ERRORS,
  readDaemonStats,
  readLastCycle,
  readStatusErrors,
  recordStatusError,
  saveDaemonStats,
  STATUS_KEYS,
  type ClientCounters,
} from './daemonStatus.js';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const counters: ClientCounters = {
  total: 42,
  rateLimited: 1,
  retries: 2,
  blocksSpent: 900,
  errors: { network: 1 },
  budgets: {
    space: { used: 12, limit: 100, windowMs: 60_000 },
    address: { used: 3, limit: 50, windowMs: 10_000 },
    blocks: { used: 400, limit: 20_000, windowMs: 60_000 },
  },
};

describe('daemon status in the journal state', () => {
  it('saves the client counters with when they were taken, and reads them back', () => {
    saveDaemonStats(j, { stats: counters, startedAt: '2026-11-21T09:00:00.000Z', now: new Date('2026-11-21T10:00:00.000Z'), pid: 4242 });
    expect(readDaemonStats(j)).toEqual({
      savedAt: '2026-11-21T10:00:00.000Z',
      startedAt: '2026-11-21T09:00:00.000Z',
      pid: 4242,
      requests: 42,
      rateLimited: 1,
      retries: 2,
      blocksSpent: 900,
      errors: { network: 1 },
      budgets: counters.budgets,
    });
  });

  it('reads nothing from a missing or foreign-shaped record', () => {
    expect(readDaemonStats(j)).toBeUndefined();
    j.setState(STATUS_KEYS.daemon, { savedAt: 'x', requests: 1 });
    expect(readDaemonStats(j)).toBeUndefined();
    j.setState(STATUS_KEYS.errors, 'nope');
    expect(readStatusErrors(j)).toEqual([]);
    j.setState(STATUS_KEYS.lastCycle, { written: 1 });
    expect(readLastCycle(j)).toBeUndefined();
  });

  it('keeps the last errors, newest last, with the link masked', () => {
    for (let i = 0; i < KEPT_ERRORS + 3; i++) {
      recordStatusError(j, {
        at: new Date(Date.UTC(2026, 10, 21, 10, i)),
        code: 'network',
        message: `failure ${i} at https://h/links/SECRETLINKID/api/v1/documents`,
      });
    }
    const errors = readStatusErrors(j);
    expect(errors).toHaveLength(KEPT_ERRORS);
    expect(errors[0]!.message).toMatch(/^failure 3 /);
    expect(errors.at(-1)!.message).toBe(`failure ${KEPT_ERRORS + 2} at https://h/links/SECR…/api/v1/documents`);
    expect(JSON.stringify(errors)).not.toContain('SECRETLINKID');
  });

  it("reads the cycle's own record: its time and its counts", () => {
    j.setState(STATUS_KEYS.lastCycle, { at: '2026-11-21T10:00:00.000Z', written: 2, failed: 0, note: 'x' });
    expect(readLastCycle(j)).toEqual({ at: '2026-11-21T10:00:00.000Z', counts: { written: 2, failed: 0 } });
  });
});
