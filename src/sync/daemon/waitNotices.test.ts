import { afterEach, beforeEach, expect, it } from 'vitest';
import type { UserWait } from '../../client/index.js';
import { openJournal, type Journal } from '../../journal/index.js';
import { readWait } from '../../journal/daemonStatus.js';
import type { SyncContext } from '../context/index.js';
import { WaitNotices } from './waitNotices.js';

let journal: Journal;
beforeEach(() => {
  journal = openJournal(':memory:');
});
afterEach(() => journal.close());

it('a wait for an answer (no end known) is not told nor recorded: only a wait for a budget is', () => {
  const warnings: unknown[] = [];
  const told: unknown[] = [];
  let listener: ((w: UserWait) => void) | undefined;
  const ctx = { journal, now: () => new Date('2026-11-28T10:00:00Z'), logger: { warn: (...a: unknown[]) => warnings.push(a) } } as unknown as SyncContext;
  const notices = new WaitNotices(
    {
      ctx,
      userWaits: (l) => {
        listener = l;
        return () => undefined;
      },
      onWait: (w) => told.push(w),
    },
    '2026-11-28T09:00:00Z',
  );
  notices.begin(['Notes/Plan.md']);
  listener!({ label: 'PUT /blocks', waitMs: Infinity, reason: 'in-flight' });
  expect(told).toEqual([]);
  expect(warnings).toEqual([]);
  expect(readWait(journal)).toBeUndefined();
  notices.close();
});
