import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { manualClock, type ManualClock } from '../../test/client/manualClock.js';
import { resolveLimits, type SchedulerLimits } from './limits.js';
import { Scheduler, type AttemptOutcome, type Job, type Priority, type SchedulerEvent, type SchedulerOptions } from './scheduler.js';
import { UsageWindow } from './usageWindow.js';

const ok = (headers: Record<string, string> = {}, blocks?: number): AttemptOutcome => ({
  kind: 'response',
  status: 200,
  headers,
  body: Buffer.from('{}'),
  ...(blocks === undefined ? {} : { blocks }),
});
const status = (code: number, headers: Record<string, string> = {}): AttemptOutcome => ({ kind: 'response', status: code, headers, body: Buffer.from('{}') });

function job(priority: Priority, outcomes: AttemptOutcome[] | (() => AttemptOutcome) = [ok()], extra: Partial<Job> = {}): Job & { calls: number } {
  const j: Job & { calls: number } = {
    priority,
    label: 'GET /blocks',
    blockCost: 0,
    idempotent: true,
    calls: 0,
    attempt: async (): Promise<AttemptOutcome> => {
      const i = j.calls++;
      return typeof outcomes === 'function' ? outcomes() : (outcomes[Math.min(i, outcomes.length - 1)] ?? ok());
    },
    ...extra,
  };
  return j;
}

function setup(limits: Partial<SchedulerLimits> = {}, options: Partial<SchedulerOptions> = {}) {
  const clock = manualClock();
  const events: SchedulerEvent[] = [];
  const scheduler = new Scheduler({
    // The address budget is wide unless a test narrows it, so each test sees one budget at work.
    limits: { ...resolveLimits({ reservePercent: 0 }), addressRequests: { limit: 10_000, windowMs: 10_000 }, ...limits },
    clock,
    maxInFlight: 1000,
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...options,
  });
  const admits = () => events.filter((e): e is Extract<SchedulerEvent, { type: 'admit' }> => e.type === 'admit');
  return { clock, scheduler, events, admits };
}

/** The largest number of admissions inside any window of `windowMs` (window ends at each admission). */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

async function drain(clock: ManualClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !done(); i++) if (!(await clock.next())) break;
}

describe('Scheduler budgets', () => {
  it('never admits more than the space budget in any window', async () => {
    const { clock, scheduler, admits } = setup();
    let settled = 0;
    const all = Array.from({ length: 250 }, () => scheduler.run(job('bulk')).then(() => settled++));
    await drain(clock, () => settled === 250);
    await Promise.all(all);
    const times = admits().map((a) => a.at);
    expect(times).toHaveLength(250);
    expect(maxInWindow(times, 60_000)).toBeLessThanOrEqual(100);
    // It uses the budget: the first 100 go at once, the next 100 one window later.
    expect(times.filter((t) => t === times[0]).length).toBe(100);
  });

  it('counts a request until one window after its answer, so late arrivals cannot overfill a window', async () => {
    const { clock, scheduler, admits } = setup({ spaceRequests: { limit: 1, windowMs: 1000 } });
    const slow = job('bulk');
    let release!: () => void;
    slow.attempt = () => new Promise((r) => (release = () => r(ok())));
    const first = scheduler.run(slow);
    const second = scheduler.run(job('bulk'));
    await clock.advance(5000);
    // The first request is still in flight after 5 s: it still occupies the only slot.
    expect(admits()).toHaveLength(1);
    release();
    await first;
    await clock.advance(999);
    expect(admits()).toHaveLength(1);
    await clock.advance(1);
    await second;
    expect(admits().map((a) => a.at - admits()[0]!.at)).toEqual([0, 6000]);
  });

  it('keeps to the per-address budget shared by two spaces', async () => {
    const clock = manualClock();
    const address = new UsageWindow(50, 10_000);
    const limits = resolveLimits({ reservePercent: 0 });
    const times: number[] = [];
    const onEvent = (e: SchedulerEvent) => e.type === 'admit' && times.push(e.at);
    const a = new Scheduler({ limits, clock, addressWindow: address, maxInFlight: 1000, onEvent });
    const b = new Scheduler({ limits, clock, addressWindow: address, maxInFlight: 1000, onEvent });
    let settled = 0;
    for (let i = 0; i < 60; i++) {
      void a.run(job('bulk')).then(() => settled++);
      void b.run(job('bulk')).then(() => settled++);
    }
    await drain(clock, () => settled === 120);
    expect(settled).toBe(120);
    expect(maxInWindow(times, 10_000)).toBeLessThanOrEqual(50);
  });

  it('keeps to the block budget, estimated before and counted after', async () => {
    const { clock, scheduler, admits } = setup();
    let settled = 0;
    // Estimated at 5,000 blocks but each read really returns 10,000: two fit a window, not four.
    for (let i = 0; i < 6; i++) void scheduler.run(job('bulk', [ok({}, 10_000)], { blockCost: 5000 })).then(() => settled++);
    await drain(clock, () => settled === 6);
    const times = admits().map((a) => a.at);
    expect(times.filter((t) => t === times[0]).length).toBe(4);
    // After the first window only what the answers counted (4 × 10,000) has expired: two per window.
    expect(maxInWindow(times.slice(4), 60_000)).toBe(2);
    expect(scheduler.stats().blocksSpent).toBe(60_000);
  });

  it('asks a cost function when the request goes, not when it is queued', async () => {
    const { clock, scheduler, admits } = setup({ blocks: { limit: 1000, windowMs: 60_000 } }, { maxInFlight: 1 });
    let learned = 100;
    // The first answer teaches that such reads cost 900 (as a document's first read does).
    const teach = job('bulk', [ok({}, 900)], { blockCost: () => learned });
    const answer = teach.attempt;
    teach.attempt = async () => {
      learned = 900;
      return answer();
    };
    const first = scheduler.run(teach);
    const second = scheduler.run(job('bulk', [ok({}, 900)], { blockCost: () => learned }));
    await first;
    await clock.advance(0);
    // Priced at 100 when it was queued, the second read would have gone at once; priced now, it waits.
    expect(admits()).toHaveLength(1);
    await clock.advance(60_000);
    await second;
    expect(admits().map((a) => a.blockCost)).toEqual([100, 900]);
  });

  it('counts no blocks for a request the service refused', async () => {
    const { clock, scheduler } = setup({ blocks: { limit: 1000, windowMs: 60_000 } });
    await scheduler.run(job('bulk', [status(404)], { blockCost: 800 }));
    await clock.advance(0);
    expect(scheduler.stats().budgets.blocks.used).toBe(0);
    await scheduler.run(job('bulk', [{ kind: 'failure', reason: 'timeout', sent: true, error: new Error('slow') }], { blockCost: 800, idempotent: false }));
    // A request that got no answer may have moved its blocks: they stay counted.
    expect(scheduler.stats().budgets.blocks.used).toBe(800);
  });

  it('lets an oversize request go alone when the block window is empty', async () => {
    const { clock, scheduler } = setup();
    const big = scheduler.run(job('bulk', [ok()], { blockCost: 50_000 }));
    await clock.advance(0);
    await expect(big).resolves.toMatchObject({ attempts: 1 });
  });

  it('obeys the service headers when they report less room than its own count', async () => {
    const { clock, scheduler, admits } = setup();
    // Another client of the space used most of the budget: 1 request left until the reset in 30 s.
    await scheduler.run(job('poll', [ok({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '30' })]));
    const later = [scheduler.run(job('poll')), scheduler.run(job('poll'))];
    await clock.advance(0);
    expect(admits()).toHaveLength(2);
    await clock.advance(29_999);
    expect(admits()).toHaveLength(2);
    await clock.advance(1);
    await Promise.all(later);
    expect(admits()).toHaveLength(3);
  });

  it('adopts the limits the service reports', async () => {
    const { scheduler } = setup();
    await scheduler.run(
      job('poll', [ok({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-blockbudget-limit': '5000', 'x-blockbudget-remaining': '4990' })]),
    );
    expect(scheduler.stats().budgets.space.limit).toBe(60);
    expect(scheduler.stats().budgets.blocks.limit).toBe(5000);
  });

  it('holds the block budget to the remaining blocks the service reports', async () => {
    const { clock, scheduler, admits } = setup();
    await scheduler.run(job('bulk', [ok({ 'x-blockbudget-remaining': '100', 'x-blockbudget-reset': '10' }, 50)], { blockCost: 50 }));
    const next = scheduler.run(job('bulk', [ok()], { blockCost: 150 }));
    await clock.advance(9_999);
    expect(admits()).toHaveLength(1);
    await clock.advance(1);
    await next;
    expect(admits()).toHaveLength(2);
  });
});

describe("Scheduler pacing by the service's rate headers", () => {
  /** Runs timers until `done`; with no timer pending, lets answers still on their way arrive first. */
  async function drainAll(clock: ManualClock, done: () => boolean): Promise<void> {
    for (let i = 0; i < 20_000 && !done(); i++) if (!(await clock.next())) await clock.advance(0);
  }

  /** A service with fixed windows of `windowMs` opening at their first request, reporting limit, remaining and reset. */
  function fixedWindowService(clock: ManualClock, limit: number, windowMs: number) {
    let start = -Infinity;
    let used = 0;
    let refused = 0;
    const answer = (): AttemptOutcome => {
      const now = clock.now();
      if (now >= start + windowMs) {
        start = now;
        used = 0;
      }
      const reset = String((start + windowMs - now) / 1000);
      if (used >= limit) {
        refused++;
        return status(429, {
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': reset,
          'retry-after-ms': String(start + windowMs - now),
        });
      }
      used++;
      return ok({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - used), 'x-ratelimit-reset': reset });
    };
    return { answer, refused: () => refused };
  }

  it("learns a shorter window from the reset times and goes at the service's pace, with no 429", async () => {
    // The client is configured with the documented 100 per 60 s; the service allows 100 per 3 s.
    const { clock, scheduler, admits } = setup({}, { maxInFlight: 8 });
    const service = fixedWindowService(clock, 100, 3_000);
    const jobs = Array.from({ length: 400 }, () => scheduler.run(job('bulk', service.answer)));
    let done = 0;
    for (const j of jobs) void j.then(() => done++);
    await drainAll(clock, () => done === jobs.length);
    expect(done).toBe(400);
    expect(service.refused()).toBe(0);
    // Four windows of the service: the last one opens 9 s after the first (at the documented pace: 3 minutes).
    const times = admits().map((e) => e.at - admits()[0]!.at);
    expect(Math.max(...times)).toBeLessThan(9_000 * 1.2);
    expect(scheduler.stats().budgets.space.windowMs).toBe(3_000);
    expect(scheduler.stats().budgets.blocks.windowMs).toBe(3_000);
  });

  it('learns a longer window too: a service that allows less is followed, with no 429', async () => {
    const { clock, scheduler, admits } = setup({}, { maxInFlight: 8 });
    const service = fixedWindowService(clock, 100, 120_000);
    const jobs = Array.from({ length: 150 }, () => scheduler.run(job('bulk', service.answer)));
    let done = 0;
    for (const j of jobs) void j.then(() => done++);
    await drainAll(clock, () => done === jobs.length);
    expect(service.refused()).toBe(0);
    expect(
      maxInWindow(
        admits().map((e) => e.at),
        120_000,
      ),
    ).toBeLessThanOrEqual(100);
    expect(scheduler.stats().budgets.space.windowMs).toBe(120_000);
  });

  it("keeps the configured window when the reset times show it less only the answer's way back", async () => {
    const { scheduler } = setup({ ...resolveLimits({ scale: 0.05, reservePercent: 0 }), addressRequests: { limit: 10_000, windowMs: 10_000 } });
    await scheduler.run(job('poll', [ok({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '2.95' })]));
    expect(scheduler.stats().budgets.space.windowMs).toBe(3_000);
    await scheduler.run(job('poll', [ok({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '2.5' })]));
    expect(scheduler.stats().budgets.space.windowMs).toBe(3_000);
    await scheduler.run(job('poll', [ok({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '6' })]));
    expect(scheduler.stats().budgets.space.windowMs).toBe(6_000);
  });

  it('without headers keeps the configured windows (budget.scale)', async () => {
    const { clock, scheduler, admits } = setup({ ...resolveLimits({ scale: 0.05, reservePercent: 0 }), addressRequests: { limit: 10_000, windowMs: 10_000 } });
    const jobs = Array.from({ length: 250 }, () => scheduler.run(job('bulk')));
    let done = 0;
    for (const j of jobs) void j.then(() => done++);
    await drainAll(clock, () => done === jobs.length);
    expect(scheduler.stats().budgets.space.windowMs).toBe(3_000);
    expect(
      maxInWindow(
        admits().map((e) => e.at),
        3_000,
      ),
    ).toBeLessThanOrEqual(100);
    expect(Math.max(...admits().map((e) => e.at)) - admits()[0]!.at).toBeLessThan(2 * 3_000 * 1.2);
  });
});

describe('Scheduler priorities and the reserve', () => {
  it('sends a user edit queued behind 500 bulk reads next', async () => {
    const { clock, scheduler, admits } = setup({}, { maxInFlight: 4 });
    let settled = 0;
    for (let i = 0; i < 500; i++) void scheduler.run(job('bulk')).then(() => settled++);
    const admittedBefore = admits().length;
    void scheduler.run(job('user', [ok()], { label: 'PUT /blocks' })).then(() => settled++);
    await drain(clock, () => settled === 501);
    const order = admits().map((a) => a.label);
    expect(admittedBefore).toBe(4);
    expect(order[admittedBefore]).toBe('PUT /blocks');
  });

  it('orders the lanes user, recent, poll, bulk and keeps each lane in order', async () => {
    const { clock, scheduler, admits } = setup({}, { maxInFlight: 1 });
    const jobs: Array<[Priority, string]> = [
      ['bulk', 'b1'],
      ['poll', 'p1'],
      ['bulk', 'b2'],
      ['recent', 'r1'],
      ['user', 'u1'],
      ['poll', 'p2'],
      ['user', 'u2'],
    ];
    // The first one goes at once (nothing else is queued yet); the rest wait for it.
    const all = jobs.map(([p, label]) => scheduler.run(job(p, [ok()], { label })));
    await drain(clock, () => admits().length === jobs.length);
    await Promise.all(all);
    expect(admits().map((a) => a.label)).toEqual(['b1', 'u1', 'u2', 'r1', 'p1', 'p2', 'b2']);
  });

  it('keeps the reserve for user edits while the user is active', async () => {
    const { clock, scheduler, admits } = setup({ reservePercent: 20 });
    await scheduler.run(job('user', [ok()], { label: 'user' }));
    for (let i = 0; i < 200; i++) void scheduler.run(job('bulk'));
    await clock.advance(0);
    // One user request and 79 background ones: 20 of 100 stay free for the user.
    expect(admits()).toHaveLength(80);
    const edits = Array.from({ length: 20 }, () => scheduler.run(job('user', [ok()], { label: 'user' })));
    await clock.advance(0);
    await Promise.all(edits);
    expect(admits()).toHaveLength(100);
  });

  it("leaves an edit's two slots of the address's window too: a pull's burst does not make an edit wait for the window", async () => {
    const { clock, scheduler, admits } = setup({ reservePercent: 20, addressRequests: { limit: 50, windowMs: 10_000 } });
    for (let i = 0; i < 100; i++) void scheduler.run(job('bulk'));
    await clock.advance(1000);
    expect(admits()).toHaveLength(48);
    for (let i = 0; i < 2; i++) void scheduler.run(job('user', [ok()], { label: 'user' }));
    await clock.advance(0);
    expect(
      admits()
        .slice(-2)
        .map((a) => [a.label, a.at - admits()[0]!.at]),
    ).toEqual(Array(2).fill(['user', 1000]));
  });

  it('lends the reserve to background work when the user is idle, paced one slot interval apart, but for the two slots an edit needs', async () => {
    const { clock, scheduler, admits } = setup({ reservePercent: 20 });
    for (let i = 0; i < 100; i++) void scheduler.run(job('bulk'));
    await clock.advance(0);
    expect(admits()).toHaveLength(80);
    await clock.advance(600 * 18);
    expect(admits()).toHaveLength(98);
    expect(admits()[80]!.at - admits()[0]!.at).toBe(600);
    // The last two slots would come back only when the burst leaves the window (60 s): they are
    // kept for an edit until they come back within a twentieth of the window (3 s).
    await clock.advance(57_000 - 600 * 18 - 1);
    expect(admits()).toHaveLength(98);
    await clock.advance(1);
    expect(admits()).toHaveLength(100);
    // An edit saved meanwhile finds them: its two requests (the listing, the write) go at once.
    const { clock: clock1, scheduler: s1, admits: admits1 } = setup({ reservePercent: 20 });
    for (let i = 0; i < 100; i++) void s1.run(job('bulk'));
    await clock1.advance(30_000);
    for (let i = 0; i < 2; i++) void s1.run(job('user', [ok()], { label: 'user' }));
    await clock1.advance(0);
    expect(
      admits1()
        .slice(-2)
        .map((a) => [a.label, a.at - admits1()[0]!.at]),
    ).toEqual(Array(2).fill(['user', 30_000]));
    // A user edit arriving while the reserve fills goes at once.
    const { clock: clock2, scheduler: s2, admits: admits2 } = setup({ reservePercent: 20 });
    for (let i = 0; i < 100; i++) void s2.run(job('bulk'));
    await clock2.advance(1000);
    void s2.run(job('user', [ok()], { label: 'user' }));
    await clock2.advance(0);
    expect(admits2().at(-1)?.label).toBe('user');
    expect(admits2().at(-1)?.at).toBe(admits2()[0]!.at + 1000);
  });
});

describe('Scheduler retries', () => {
  it('holds every request of the space until Retry-After has passed', async () => {
    const { clock, scheduler, admits } = setup();
    const limited = job('poll', [status(429, { 'retry-after': '7' }), ok()]);
    const first = scheduler.run(limited);
    await clock.advance(0);
    const other = scheduler.run(job('user', [ok()], { label: 'user' }));
    await clock.advance(6_999);
    expect(admits()).toHaveLength(1);
    await clock.advance(1);
    await Promise.all([first, other]);
    const [a, b, c] = admits();
    expect(b!.at - a!.at).toBe(7000);
    expect(c!.at - a!.at).toBe(7000);
    // The user edit queued during the pause goes before the retried poll.
    expect(b!.label).toBe('user');
    await expect(first).resolves.toMatchObject({ attempts: 2, retriedAfter: ['429'] });
    expect(scheduler.stats().rateLimited).toBe(1);
  });

  it('tells onUserWait listeners how long a user edit waits, and not about background work', async () => {
    const { clock, scheduler } = setup();
    const waits: Array<{ label: string; waitMs: number; reason: string }> = [];
    const stop = scheduler.onUserWait((w) => waits.push(w));
    const background = scheduler.run(job('poll', [status(429, { 'retry-after': '7' }), ok()]));
    await clock.advance(0);
    expect(waits).toEqual([]);
    const edit = scheduler.run(job('user', [ok()], { label: 'PUT /blocks' }));
    await clock.advance(0);
    expect(waits[0]).toEqual({ label: 'PUT /blocks', waitMs: 7000, reason: 'retry-after' });
    stop();
    await clock.advance(7000);
    await Promise.all([background, edit]);
    expect(waits).toHaveLength(1);
  });

  it("reads Retry-After as an HTTP date against the answer's Date header", async () => {
    const { clock, scheduler, admits } = setup();
    const served = new Date(clock.now() - 3600_000); // the local clock is an hour ahead of the service
    const until = new Date(served.getTime() + 5000);
    const first = scheduler.run(job('poll', [status(429, { 'retry-after': until.toUTCString(), date: served.toUTCString() }), ok()]));
    await clock.advance(4_999);
    expect(admits()).toHaveLength(1);
    await clock.advance(1);
    await first;
    expect(admits()).toHaveLength(2);
  });

  it('backs off with full jitter when a 429 has no Retry-After', async () => {
    const randoms = [0.5, 0.25];
    const { clock, scheduler, events } = setup({}, { random: () => randoms.shift() ?? 0, backoff: { baseMs: 1000, capMs: 60_000 } });
    const r = scheduler.run(job('poll', [status(429), status(429), ok()]));
    await drain(clock, () => events.filter((e) => e.type === 'admit').length === 3);
    await r;
    const delays = events.flatMap((e) => (e.type === 'retry' ? [e.delayMs] : []));
    // attempt 1: random × 1000; attempt 2: random × 2000.
    expect(delays).toEqual([500, 500]);
    const admitsAt = events.flatMap((e) => (e.type === 'admit' ? [e.at] : []));
    expect(admitsAt[1]! - admitsAt[0]!).toBe(500);
    expect(admitsAt[2]! - admitsAt[1]!).toBe(500);
  });

  it('gives up after max429Retries and hands back the 429', async () => {
    const { clock, scheduler } = setup({}, { max429Retries: 2 });
    const r = scheduler.run(job('poll', [status(429, { 'retry-after': '1' })]));
    await drain(clock, () => false);
    await expect(r).resolves.toMatchObject({ attempts: 3, exhausted: true, outcome: { status: 429 } });
  });

  it('retries idempotent requests after 5xx, reset and timeout, then gives up', async () => {
    const { clock, scheduler } = setup({}, { maxRetries: 3 });
    const reset: AttemptOutcome = { kind: 'failure', reason: 'reset', sent: true, error: new Error('socket hang up') };
    const timeout: AttemptOutcome = { kind: 'failure', reason: 'timeout', sent: true, error: new Error('timeout') };
    const j = job('poll', [status(500), reset, timeout, ok()], { label: 'PUT /blocks' });
    const r = scheduler.run(j);
    await drain(clock, () => j.calls === 4);
    await expect(r).resolves.toMatchObject({ attempts: 4, retriedAfter: ['5xx', 'reset', 'timeout'], outcome: { status: 200 } });
    const failing = job('poll', [status(503)]);
    const f = scheduler.run(failing);
    await drain(clock, () => false);
    await expect(f).resolves.toMatchObject({ attempts: 4, exhausted: true, outcome: { status: 503 } });
  });

  it('never retries a POST the service may have applied', async () => {
    const { clock, scheduler } = setup();
    const post = (o: AttemptOutcome) => job('user', [o, ok()], { idempotent: false, label: 'POST /blocks' });
    for (const outcome of [
      { kind: 'failure', reason: 'reset', sent: true, error: new Error('reset') } as const,
      { kind: 'failure', reason: 'timeout', sent: true, error: new Error('timeout') } as const,
      status(500),
    ]) {
      const j = post(outcome);
      const r = scheduler.run(j);
      await clock.advance(10_000);
      await expect(r).resolves.toMatchObject({ attempts: 1, retriedAfter: [], exhausted: false, outcome });
      expect(j.calls).toBe(1);
    }
  });

  it('retries a POST that never reached the service, and one answered with 429', async () => {
    const { clock, scheduler } = setup();
    const refused = job('user', [{ kind: 'failure', reason: 'connect', sent: false, error: new Error('ECONNREFUSED') }, ok()], { idempotent: false });
    const limited = job('user', [status(429, { 'retry-after': '0' }), ok()], { idempotent: false });
    const r = [scheduler.run(refused), scheduler.run(limited)];
    await drain(clock, () => refused.calls === 2 && limited.calls === 2);
    await expect(Promise.all(r)).resolves.toMatchObject([
      { attempts: 2, retriedAfter: ['connect'] },
      { attempts: 2, retriedAfter: ['429'] },
    ]);
  });

  it('treats an attempt that throws as a failure to connect', async () => {
    const { clock, scheduler } = setup({}, { maxRetries: 0 });
    const r = scheduler.run({ ...job('poll'), attempt: () => Promise.reject(new Error('boom')) });
    await clock.advance(0);
    await expect(r).resolves.toMatchObject({ outcome: { kind: 'failure', reason: 'connect', sent: false } });
  });
});

describe('Scheduler lifecycle and counters', () => {
  it('rejects queued requests with code cancelled on close', async () => {
    const { clock, scheduler } = setup({ spaceRequests: { limit: 1, windowMs: 1000 } });
    const first = scheduler.run(job('poll'));
    const second = scheduler.run(job('poll'));
    await clock.advance(0);
    scheduler.close();
    await expect(first).resolves.toMatchObject({ attempts: 1 });
    const err = await second.catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'cancelled')).toBe(true);
    await expect(scheduler.run(job('poll'))).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('counts requests by endpoint and outcome, 429s, blocks and the time spent waiting', async () => {
    const { clock, scheduler } = setup({ spaceRequests: { limit: 1, windowMs: 1000 } });
    const r = [
      scheduler.run(job('poll', [status(429, { 'retry-after': '2' }), ok({}, 12)], { blockCost: 10 })),
      scheduler.run(job('poll', [ok()], { label: 'GET /documents' })),
    ];
    await drain(clock, () => false);
    await Promise.all(r);
    const s = scheduler.stats();
    expect(s.requests).toEqual({ 'GET /blocks': { '429': 1, '200': 1 }, 'GET /documents': { '200': 1 } });
    expect(s.total).toBe(3);
    expect(s.rateLimited).toBe(1);
    expect(s.retries).toBe(1);
    expect(s.blocksSpent).toBe(12);
    // The retried read waited out Retry-After (2 s); GET /documents waited for it and its window.
    expect(s.stalledMs).toBe(3000);
    expect(s.queuedMs).toBeGreaterThanOrEqual(5000);
    expect(s.queued).toEqual({ user: 0, recent: 0, poll: 0, bulk: 0 });
  });
});

describe('Scheduler waitingFor', () => {
  it('tells what the first request in line waits for, as stats() does, and nothing once the line moves', async () => {
    const { clock, scheduler } = setup({ spaceRequests: { limit: 1, windowMs: 1000 } });
    expect(scheduler.waitingFor()).toBeUndefined();
    const first = scheduler.run(job('bulk'));
    const second = scheduler.run(job('bulk'));
    await clock.advance(0);
    expect(scheduler.waitingFor()).toBe('space');
    expect(scheduler.stats().waitingFor).toBe('space');
    await first;
    await clock.advance(1000);
    await second;
    expect(scheduler.waitingFor()).toBeUndefined();
    expect(scheduler.stats().waitingFor).toBeUndefined();
  });
});

describe('Scheduler stop requests (an AbortSignal per job)', () => {
  const failure = (reason: 'timeout' | 'reset', sent: boolean): AttemptOutcome => ({ kind: 'failure', reason, sent, error: new Error(reason) });

  it('ends a budget wait at once: the waiting job is rejected with cancelled and never sent', async () => {
    const { clock, scheduler, admits } = setup({ spaceRequests: { limit: 1, windowMs: 60_000 } });
    const stop = new AbortController();
    const first = scheduler.run(job('poll', [ok()], { signal: stop.signal }));
    const waiting = job('poll', [ok()], { signal: stop.signal });
    const second = scheduler.run(waiting);
    await clock.advance(0);
    expect(scheduler.stats().waitingFor).toBe('space');
    stop.abort();
    const err = await second.catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'cancelled')).toBe(true);
    expect((err as { details: { mayHaveApplied: boolean } }).details.mayHaveApplied).toBe(false);
    await expect(first).resolves.toMatchObject({ attempts: 1 });
    expect(waiting.calls).toBe(0);
    expect(admits()).toHaveLength(1);
    // Nothing left to wake for: no timer keeps the process alive.
    expect(clock.pending()).toBe(0);
  });

  it('ends a Retry-After wait at once, and a backoff wait says an earlier try may have been applied', async () => {
    const { clock, scheduler } = setup();
    const stop = new AbortController();
    const limited = job('poll', [status(429, { 'retry-after': '30' }), ok()], { signal: stop.signal });
    const timedOut = job('user', [failure('timeout', true), ok()], { signal: stop.signal, label: 'PUT /blocks' });
    const a = scheduler.run(limited);
    const b = scheduler.run(timedOut);
    await clock.advance(0);
    expect(scheduler.stats().retryAfterUntil).toBeGreaterThan(clock.now());
    stop.abort();
    const [ea, eb] = await Promise.all([a.catch((e: unknown) => e), b.catch((e: unknown) => e)]);
    expect(isSpacesyncError(ea, 'cancelled')).toBe(true);
    expect(isSpacesyncError(eb, 'cancelled')).toBe(true);
    expect((eb as { details: { mayHaveApplied: boolean } }).details.mayHaveApplied).toBe(true);
    expect([limited.calls, timedOut.calls]).toEqual([1, 1]);
    expect(clock.pending()).toBe(0);
  });

  it('lets a request already sent finish, and does not send it again after a stop', async () => {
    const { clock, scheduler } = setup();
    const stop = new AbortController();
    let answer!: (o: AttemptOutcome) => void;
    const sent = job('user', [], { signal: stop.signal, label: 'PUT /blocks' });
    sent.attempt = () => {
      sent.calls++;
      return new Promise((r) => (answer = r));
    };
    const r = scheduler.run(sent);
    await clock.advance(0);
    stop.abort();
    answer(status(503));
    await clock.advance(0);
    await expect(r).resolves.toMatchObject({ attempts: 1, outcome: { kind: 'response', status: 503 } });
    expect(sent.calls).toBe(1);
    await expect(scheduler.run(job('poll', [ok()], { signal: stop.signal }))).rejects.toMatchObject({ code: 'cancelled' });
  });
});
