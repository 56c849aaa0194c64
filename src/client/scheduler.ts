// The request scheduler, one per space and shared by everything that talks to it: it decides when
// each request may go so that the space's three rate budgets are never exceeded, user edits go
// first, Retry-After is obeyed, and failed attempts are retried only when retrying is safe.
import { SpacesyncError } from '../errors.js';
import type { Logger } from '../log.js';
import { blockBudgetReport, requestBudgetReport, retryAfterMs, type BudgetReport, type SchedulerLimits } from './limits.js';
import { UsageWindow, type UsageEntry } from './usageWindow.js';

// The scheduler's counters, read by `spacesync status` and the benchmarks.
/** user edits, then remote changes to recently touched documents, then polling, then bulk pulls. */
export type Priority = 'user' | 'recent' | 'poll' | 'bulk';

/** What the first request in line is waiting for. */
export type WaitReason = 'retry-after' | 'in-flight' | 'address' | 'space' | 'blocks';

export interface BudgetView {
  used: number;
  limit: number;
  windowMs: number;
}

export interface SchedulerStats {
  /** Attempts by endpoint (`GET /blocks`) and outcome (`200`, `429`, `reset`, `timeout`, `connect`). */
  requests: Record<string, Record<string, number>>;
  /** All attempts, retries included (each one counts against the budgets). */
  total: number;
  /** 429 answers. */
  rateLimited: number;
  retries: number;
  /** Blocks read or written by successful requests (counted from answers where possible). */
  blocksSpent: number;
  /** Sum over requests of the time each spent queued before it was sent. */
  queuedMs: number;
  /** Wall time during which work was queued but held back by a budget or Retry-After. */
  stalledMs: number;
  queued: Record<Priority, number>;
  inFlight: number;
  waitingFor: WaitReason | undefined;
  /** Until when a Retry-After holds every request of the space. */
  retryAfterUntil: number | undefined;
  budgets: { space: BudgetView; address: BudgetView; blocks: BudgetView };
}

export type Counters = Pick<SchedulerStats, 'requests' | 'total' | 'rateLimited' | 'retries' | 'blocksSpent' | 'queuedMs' | 'stalledMs'>;

export function emptyStats(): Counters {
  return { requests: {}, total: 0, rateLimited: 0, retries: 0, blocksSpent: 0, queuedMs: 0, stalledMs: 0 };
}

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

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
}

/**
 * The wait before retry number `attempt` (1 = first retry): exponential backoff with full jitter, a
 * uniformly random wait below an exponentially growing cap, so that clients which failed together
 * do not retry together. `random` returns [0, 1).
 */
export function fullJitter(attempt: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Requests a one-block edit needs (the listing, the write): what background work leaves free in a window (within the reserve). */
const USER_SLOTS = 2;
export const PRIORITIES: readonly Priority[] = ['user', 'recent', 'poll', 'bulk'];

export interface AttemptResponse {
  kind: 'response';
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Blocks the service actually read or wrote, when the caller could count them. */
  blocks?: number;
}

export interface AttemptFailure {
  kind: 'failure';
  /** connect: nothing reached the service; reset: the connection broke; timeout: no answer in time. */
  reason: 'connect' | 'reset' | 'timeout';
  /** Whether the whole request had been handed to the network (so the service may have applied it). */
  sent: boolean;
  error: unknown;
}

export type AttemptOutcome = AttemptResponse | AttemptFailure;

export interface Job {
  priority: Priority;
  /** The endpoint without ids, e.g. `GET /collections/{collectionId}/items`: the key of the counters. */
  label: string;
  /**
   * Estimated blocks read or written (0 for requests that touch no blocks); a function is asked
   * when the request is about to go, so it can use what earlier answers taught.
   */
  blockCost: number | (() => number);
  /** GET, PUT and DELETE: safe to send again when the service may have applied them. */
  idempotent: boolean;
  /** One try. It must not throw: transport errors come back as an AttemptFailure. */
  attempt(): Promise<AttemptOutcome>;
  /**
   * A stop request: a job still waiting (for a budget, a Retry-After, a backoff) is rejected with
   * `cancelled` at once; an attempt already sent finishes or times out, and is not tried again.
   */
  signal?: AbortSignal;
}

export type RetryCause = '429' | '5xx' | 'connect' | 'reset' | 'timeout';

export interface JobResult {
  /** The last attempt's outcome, which the scheduler did not retry. */
  outcome: AttemptOutcome;
  attempts: number;
  /** Why each earlier attempt was sent again. */
  retriedAfter: RetryCause[];
  /** Why the scheduler gave up retrying, when it did. */
  exhausted: boolean;
  queuedMs: number;
}

export type SchedulerEvent =
  | { type: 'admit'; seq: number; label: string; priority: Priority; at: number; attempt: number; blockCost: number }
  | { type: 'settle'; seq: number; label: string; at: number; status: number | AttemptFailure['reason']; blocks: number }
  | { type: 'retry'; seq: number; label: string; at: number; cause: RetryCause; delayMs: number; floor: boolean };

/** A user edit at the head of the queue that must wait: how long, and for which budget. */
export interface UserWait {
  label: string;
  waitMs: number;
  reason: WaitReason;
}

export interface SchedulerOptions {
  limits: SchedulerLimits;
  clock?: Clock;
  /** Shared by all schedulers that reach the service from this machine; one per scheduler when omitted. */
  addressWindow?: UsageWindow;
  /** Requests in flight at once. */
  maxInFlight?: number;
  /** Retries of a request after 5xx, reset, timeout or a failed connection. */
  maxRetries?: number;
  /** Retries of a request the service answered with 429. */
  max429Retries?: number;
  backoff?: BackoffOptions;
  random?: () => number;
  onEvent?: (event: SchedulerEvent) => void;
  /** Told about every retry and every pause the service asked for. */
  logger?: Logger;
}

interface Queued {
  job: Job;
  resolve: (r: JobResult) => void;
  reject: (e: unknown) => void;
  attempts: number;
  retries: number;
  retries429: number;
  retriedAfter: RetryCause[];
  /** Since when the job has been ready to go (for the wait counters). */
  readySince: number;
  queuedMs: number;
  notBefore: number;
  /** Forgets the stop request's listener once the job is done. */
  detach?: () => void;
  /** An earlier attempt reached the service and may have been applied (a 5xx, a reset or timeout after sending). */
  mayHaveApplied?: boolean;
}

/** A correction from the service's headers: after request `anchor`, only `remaining` more fit until `until`. */
interface Hint {
  anchor: number;
  remaining: number;
  until: number;
}

const stopped = (label: string, mayHaveApplied = false) =>
  new SpacesyncError(
    'cancelled',
    mayHaveApplied
      ? `The request ${label} was not sent again: the sync was asked to stop. An earlier try may have been applied; the next run reads its documents again before sending anything.`
      : `The request ${label} was not sent: the sync was asked to stop. The next run sends it if it is still needed.`,
    { details: { endpoint: label, mayHaveApplied } },
  );

function costOf(job: Job): number {
  const cost = typeof job.blockCost === 'function' ? job.blockCost() : job.blockCost;
  return Number.isFinite(cost) && cost > 0 ? cost : 0;
}

export class Scheduler {
  readonly limits: SchedulerLimits;
  private readonly clock: Clock;
  private readonly space: UsageWindow;
  private readonly blocks: UsageWindow;
  private readonly address: UsageWindow;
  private readonly lanes = new Map<Priority, Queued[]>(PRIORITIES.map((p) => [p, []]));
  private delayed: Queued[] = [];
  private inFlight = 0;
  private seq = 0;
  private blockedUntil = 0;
  private consecutive429 = 0;
  private lastUserAdmit = -Infinity;
  /** Background requests may burst up to the reserve line, then go at the budget's average rate. */
  private backgroundTokens = Infinity;
  private backgroundTokensAt = -Infinity;
  private spaceHint: Hint | undefined;
  private blockHint: Hint | undefined;
  /** The space window the service's reset times show (undefined until one does). */
  private learnedWindowMs: number | undefined;
  private readonly ownAddressWindow: boolean;
  private cancelWake: (() => void) | undefined;
  private wakeAt = Infinity;
  private stalledSince: number | undefined;
  private waitReason: WaitReason | undefined;
  private closed = false;
  private readonly counters: Counters;
  private readonly maxInFlight: number;
  private readonly maxRetries: number;
  private readonly max429Retries: number;
  private readonly backoff: BackoffOptions;
  private readonly random: () => number;
  private readonly onEvent: ((e: SchedulerEvent) => void) | undefined;
  private readonly log: Logger | undefined;
  private readonly unsubscribe: () => void;
  private readonly onAddressFreed = () => this.pump();
  private readonly userWaitListeners = new Set<(w: UserWait) => void>();

  constructor(options: SchedulerOptions) {
    this.limits = options.limits;
    this.clock = options.clock ?? systemClock;
    const { spaceRequests, addressRequests, blocks } = options.limits;
    this.space = new UsageWindow(spaceRequests.limit, spaceRequests.windowMs);
    this.blocks = new UsageWindow(blocks.limit, blocks.windowMs);
    this.address = options.addressWindow ?? new UsageWindow(addressRequests.limit, addressRequests.windowMs);
    this.ownAddressWindow = options.addressWindow === undefined;
    this.maxInFlight = options.maxInFlight ?? 8;
    this.maxRetries = options.maxRetries ?? 4;
    this.max429Retries = options.max429Retries ?? 8;
    // Backoff scales with the windows, so a time-scaled test server gets time-scaled retries.
    const scale = spaceRequests.windowMs / 60_000;
    this.backoff = options.backoff ?? { baseMs: 1000 * scale, capMs: 60_000 * scale };
    this.random = options.random ?? Math.random;
    this.onEvent = options.onEvent;
    this.log = options.logger?.child({ component: 'scheduler' });
    this.counters = emptyStats();
    // Another space's answers free the shared address budget: look again when they do.
    this.unsubscribe = this.address.subscribe(this.onAddressFreed);
  }

  /** Queues `job`; resolves with its final attempt once it is done (after any retries). */
  run(job: Job): Promise<JobResult> {
    if (this.closed)
      return Promise.reject(new SpacesyncError('cancelled', `The request ${job.label} was not sent: the client was closed. Open a new client to send it.`));
    if (job.signal?.aborted) return Promise.reject(stopped(job.label));
    return new Promise<JobResult>((resolve, reject) => {
      const now = this.clock.now();
      const q: Queued = { job, resolve, reject, attempts: 0, retries: 0, retries429: 0, retriedAfter: [], readySince: now, queuedMs: 0, notBefore: now };
      const { signal } = job;
      if (signal) {
        const onAbort = () => this.withdraw(q);
        signal.addEventListener('abort', onAbort, { once: true });
        q.detach = () => signal.removeEventListener('abort', onAbort);
        q.resolve = (r) => {
          q.detach?.();
          resolve(r);
        };
        q.reject = (e) => {
          q.detach?.();
          reject(e);
        };
      }
      this.lane(job.priority).push(q);
      this.pump();
    });
  }

  /** Tells `listener` whenever a user edit must wait for a budget (so a person can be told); returns the unsubscribe. */
  onUserWait(listener: (w: UserWait) => void): () => void {
    this.userWaitListeners.add(listener);
    return () => this.userWaitListeners.delete(listener);
  }

  /** A stop request for a job: out of its queue at once when it waits there; one in flight goes on. */
  private withdraw(q: Queued): void {
    const lane = this.lane(q.job.priority);
    const at = lane.indexOf(q);
    if (at >= 0) lane.splice(at, 1);
    else if (this.delayed.includes(q)) this.delayed = this.delayed.filter((d) => d !== q);
    else return;
    q.reject(stopped(q.job.label, q.mayHaveApplied === true));
    this.pump();
  }

  /** What the first request in line waits for (stats().waitingFor), without the rest of the stats: progress asks after every document. */
  waitingFor(): WaitReason | undefined {
    return this.waitReason;
  }

  stats(): SchedulerStats {
    const now = this.clock.now();
    const queued = Object.fromEntries(PRIORITIES.map((p) => [p, this.lane(p).length + this.delayed.filter((q) => q.job.priority === p).length])) as Record<
      Priority,
      number
    >;
    return {
      ...this.counters,
      requests: structuredClone(this.counters.requests),
      stalledMs: this.counters.stalledMs + (this.stalledSince === undefined ? 0 : now - this.stalledSince),
      queued,
      inFlight: this.inFlight,
      waitingFor: this.waitReason,
      retryAfterUntil: this.blockedUntil > now ? this.blockedUntil : undefined,
      budgets: {
        space: { used: this.space.used(now), limit: this.space.limit, windowMs: this.space.windowMs },
        address: { used: this.address.used(now), limit: this.address.limit, windowMs: this.address.windowMs },
        blocks: { used: this.blocks.used(now), limit: this.blocks.limit, windowMs: this.blocks.windowMs },
      },
    };
  }

  /** Rejects every queued request and stops the timers; requests in flight finish. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelWake?.();
    this.unsubscribe();
    const pending = [...PRIORITIES.flatMap((p) => this.lane(p)), ...this.delayed];
    for (const p of PRIORITIES) this.lane(p).length = 0;
    this.delayed = [];
    for (const q of pending)
      q.reject(new SpacesyncError('cancelled', `The request ${q.job.label} was not sent: the client was closed. Open a new client to send it.`));
  }

  private lane(p: Priority): Queued[] {
    return this.lanes.get(p)!;
  }

  private reserve(limit: number): number {
    return Math.floor((limit * this.limits.reservePercent) / 100);
  }

  /** The user is editing: background work leaves the reserve alone for one window after a user request. */
  private userActive(now: number): boolean {
    return this.lane('user').length > 0 || now - this.lastUserAdmit < this.space.windowMs;
  }

  /** 0 when `q` may go now; otherwise how long until it may (Infinity: until an answer arrives). */
  private waitFor(q: Queued, now: number): { ms: number; reason?: WaitReason } {
    if (this.blockedUntil > now) return { ms: this.blockedUntil - now, reason: 'retry-after' };
    if (this.inFlight >= this.maxInFlight) return { ms: Infinity, reason: 'in-flight' };
    const user = q.job.priority === 'user';
    const active = this.userActive(now);
    let wait = 0;
    let reason: WaitReason | undefined;
    const need = (at: number, why: WaitReason) => {
      if (at - now > wait) {
        wait = at - now;
        reason = why;
      }
    };

    need(this.address.freeAt(1, this.address.limit, now), 'address');

    const spaceLimit = this.space.limit;
    const spaceLine = Math.max(1, spaceLimit - this.reserve(spaceLimit));
    need(this.space.freeAt(1, user || !active ? spaceLimit : spaceLine, now), 'space');
    // Background work bursts up to the reserve line and then goes at the budget's average rate, so
    // a user edit arriving while the window fills finds a slot at once; in steady running the
    // bucket stays full and costs nothing.
    if (!user) {
      const tokens = this.tokens(now);
      if (tokens < 1) need(now + ((1 - tokens) * this.space.windowMs) / spaceLimit, 'space');
    }
    if (this.spaceHint && this.space.usedAfter(this.spaceHint.anchor, now) + 1 > this.spaceHint.remaining) need(this.spaceHint.until, 'space');
    // Nor does it take the last slots of a window when they would not come back soon: an edit saved
    // while a long pull fills the windows (the address's burst of 50 in 10 s, the space's burst up to
    // its reserve line) finds room for its first requests within a twentieth of a window (3 s of a minute).
    if (!user) {
      for (const [w, why] of [
        [this.address, 'address'],
        [this.space, 'space'],
      ] as const) {
        const keep = Math.min(USER_SLOTS, this.reserve(w.limit));
        if (keep > 0) need(w.freeAt(1 + keep, w.limit, now) - w.windowMs / 20, why);
      }
    }

    const cost = costOf(q.job);
    if (cost > 0) {
      const blockLimit = this.blocks.limit;
      need(this.blocks.freeAt(cost, user || !active ? blockLimit : Math.max(1, blockLimit - this.reserve(blockLimit)), now), 'blocks');
      if (this.blockHint && this.blocks.usedAfter(this.blockHint.anchor, now) + cost > this.blockHint.remaining) need(this.blockHint.until, 'blocks');
    }
    return reason === undefined ? { ms: 0 } : { ms: wait, reason };
  }

  private tokens(now: number): number {
    const limit = this.space.limit;
    const capacity = Math.max(1, limit - this.reserve(limit));
    const refilled = this.backgroundTokens + ((now - this.backgroundTokensAt) * limit) / this.space.windowMs;
    this.backgroundTokens = Math.min(capacity, Number.isFinite(refilled) ? refilled : capacity);
    this.backgroundTokensAt = now;
    return this.backgroundTokens;
  }

  private pump(): void {
    if (this.closed) return;
    const now = this.clock.now();
    this.dropStaleHints(now);
    this.releaseDelayed(now);
    let wake = this.delayed.reduce((min, q) => Math.min(min, q.notBefore), Infinity);
    for (;;) {
      const lane = PRIORITIES.map((p) => this.lane(p)).find((l) => l.length > 0);
      const q = lane?.[0];
      if (!lane || !q) {
        this.setStalled(undefined, now);
        break;
      }
      const { ms, reason } = this.waitFor(q, now);
      if (ms > 0) {
        this.setStalled(reason, now);
        if (q.job.priority === 'user' && reason) for (const l of this.userWaitListeners) l({ label: q.job.label, waitMs: ms, reason });
        wake = Math.min(wake, now + ms);
        break;
      }
      lane.shift();
      this.admit(q, now);
    }
    this.scheduleWake(wake);
  }

  private admit(q: Queued, now: number): void {
    const { job } = q;
    const seq = ++this.seq;
    q.attempts++;
    q.queuedMs += now - q.readySince;
    this.counters.queuedMs += now - q.readySince;
    if (job.priority === 'user') this.lastUserAdmit = now;
    else this.backgroundTokens = this.tokens(now) - 1;
    const cost = costOf(job);
    const entries = {
      address: this.address.add(seq, 1),
      space: this.space.add(seq, 1),
      blocks: cost > 0 ? this.blocks.add(seq, cost) : undefined,
    };
    this.inFlight++;
    this.onEvent?.({ type: 'admit', seq, label: job.label, priority: job.priority, at: now, attempt: q.attempts, blockCost: cost });
    let attempt: Promise<AttemptOutcome>;
    try {
      attempt = job.attempt();
    } catch (error) {
      attempt = Promise.resolve({ kind: 'failure', reason: 'connect', sent: false, error });
    }
    attempt
      .catch((error: unknown): AttemptOutcome => ({ kind: 'failure', reason: 'connect', sent: false, error }))
      .then((outcome) => this.settle(q, seq, entries, outcome))
      .catch((error: unknown) => q.reject(error));
  }

  private settle(q: Queued, seq: number, entries: { address: UsageEntry; space: UsageEntry; blocks: UsageEntry | undefined }, outcome: AttemptOutcome): void {
    const now = this.clock.now();
    const { job } = q;
    this.inFlight--;
    // First what the answer says of the windows, so this request's own entry already leaves by it.
    if (outcome.kind === 'response') this.learn(seq, outcome, now);
    // A refused request (4xx, 429 included) moved no blocks; a failed one may have moved all it asked for.
    const refused = outcome.kind === 'response' && outcome.status >= 400 && outcome.status < 500;
    const spent = refused ? 0 : outcome.kind === 'response' && outcome.blocks !== undefined ? outcome.blocks : (entries.blocks?.weight ?? 0);
    this.address.settle(entries.address, now);
    this.space.settle(entries.space, now);
    if (entries.blocks) this.blocks.settle(entries.blocks, now, spent);
    else if (spent > 0) this.blocks.settle(this.blocks.add(seq, spent), now);
    this.counters.blocksSpent += outcome.kind === 'response' && outcome.status < 400 ? spent : 0;
    this.count(job.label, outcome.kind === 'response' ? String(outcome.status) : outcome.reason);
    if (outcome.kind === 'response' && outcome.status === 429) this.counters.rateLimited++;
    this.onEvent?.({ type: 'settle', seq, label: job.label, at: now, status: outcome.kind === 'response' ? outcome.status : outcome.reason, blocks: spent });

    const cause = this.retryCause(q, outcome);
    if (cause === undefined) {
      if (outcome.kind === 'response' && outcome.status !== 429) this.consecutive429 = 0;
      const exhausted = this.wouldRetry(job, outcome);
      q.resolve({ outcome, attempts: q.attempts, retriedAfter: q.retriedAfter, exhausted, queuedMs: q.queuedMs });
    } else {
      this.retry(q, seq, cause, outcome, now);
    }
    this.pump();
    this.address.notify(this.onAddressFreed);
  }

  /** Reads the service's view of the budgets from an answer. */
  private learn(seq: number, res: AttemptResponse, now: number): void {
    const requests = requestBudgetReport(res.headers, now);
    if (requests) {
      this.learnWindow(requests, now);
      this.spaceHint = this.correct(this.space, this.spaceHint, requests, seq, now);
    }
    const blocks = blockBudgetReport(res.headers, now);
    if (blocks) this.blockHint = this.correct(this.blocks, this.blockHint, blocks, seq, now);
  }

  /**
   * Learns the length of the service's request window from its reset times: the first request of
   * a window (remaining = limit - 1) sees the whole window ahead of it; any answer sees at least
   * that much of it. Every window (space, blocks, own address) is then scaled like it, as the
   * service scales its windows together: a service that allows more is used at its pace, one that
   * allows less is followed. Without reset times the configured windows stay.
   */
  private learnWindow(report: BudgetReport, now: number): void {
    if (report.resetAt === undefined) return;
    const ahead = report.resetAt - now;
    if (!(ahead > 0)) return;
    const configured = this.limits.spaceRequests.windowMs;
    const fresh = report.remaining >= (report.limit ?? this.space.limit) - 1;
    let next = this.learnedWindowMs;
    if (fresh) next = Math.max(next ?? 0, ahead);
    else if (ahead > (next ?? configured)) next = ahead;
    if (next === undefined || next === this.learnedWindowMs) return;
    this.learnedWindowMs = next;
    // An answer sees the window less the time it took to come back: within a tenth below the
    // configured window, the configured one stands.
    const factor = next >= configured * 0.9 && next <= configured ? 1 : next / configured;
    this.space.setWindow(configured * factor);
    this.blocks.setWindow(this.limits.blocks.windowMs * factor);
    if (this.ownAddressWindow) this.address.setWindow(this.limits.addressRequests.windowMs * factor);
  }

  private correct(window: UsageWindow, current: Hint | undefined, report: BudgetReport, seq: number, now: number): Hint | undefined {
    if (report.limit !== undefined) window.limit = report.limit;
    // An answer to an older request than the one the current hint came with knows less.
    if (current && current.anchor > seq) return current;
    return { anchor: seq, remaining: report.remaining, until: report.resetAt ?? now + window.windowMs };
  }

  private dropStaleHints(now: number): void {
    if (this.spaceHint && this.spaceHint.until <= now) this.spaceHint = undefined;
    if (this.blockHint && this.blockHint.until <= now) this.blockHint = undefined;
  }

  /** Whether the outcome is of a kind the scheduler retries (ignoring how many tries are left). */
  private wouldRetry(job: Job, outcome: AttemptOutcome): boolean {
    if (outcome.kind === 'response') return outcome.status === 429 || (outcome.status >= 500 && job.idempotent);
    return outcome.reason === 'connect' || !outcome.sent || job.idempotent;
  }

  private retryCause(q: Queued, outcome: AttemptOutcome): RetryCause | undefined {
    if (this.closed || q.job.signal?.aborted || !this.wouldRetry(q.job, outcome)) return undefined;
    if (outcome.kind === 'response' && outcome.status === 429) return q.retries429 < this.max429Retries ? '429' : undefined;
    if (q.retries >= this.maxRetries) return undefined;
    // Nothing reached the service when the request was not fully sent, even for a POST.
    return outcome.kind === 'response' ? '5xx' : outcome.sent ? outcome.reason : 'connect';
  }

  private retry(q: Queued, seq: number, cause: RetryCause, outcome: AttemptOutcome, now: number): void {
    q.retriedAfter.push(cause);
    let delay: number;
    let floor = false;
    if (cause === '429' && outcome.kind === 'response') {
      q.retries429++;
      this.consecutive429++;
      // Retry-After is a floor for every request of the space, not only this one.
      delay = retryAfterMs(outcome.headers, now) ?? fullJitter(this.consecutive429, this.backoff, this.random);
      this.blockedUntil = Math.max(this.blockedUntil, now + delay);
      floor = true;
    } else {
      q.retries++;
      if (cause !== 'connect') q.mayHaveApplied = true;
      delay = fullJitter(q.retries, this.backoff, this.random);
    }
    this.counters.retries++;
    this.onEvent?.({ type: 'retry', seq, label: q.job.label, at: now, cause, delayMs: delay, floor });
    if (floor)
      this.log?.info({ endpoint: q.job.label, waitMs: delay }, `The service asked to slow down (429): every request of the space waits ${Math.ceil(delay)} ms`);
    // The log file's line, not the terminal's: a retry is no news until the request gives up, and an
    // outage would print one per attempt (the daemon says once that the space is out of reach).
    else
      this.log?.info(
        { endpoint: q.job.label, cause, waitMs: delay, attempt: q.attempts },
        `${q.job.label} failed (${cause}); sending it again in ${Math.ceil(delay)} ms`,
      );
    q.notBefore = now + delay;
    q.readySince = now;
    if (floor || delay <= 0) this.lane(q.job.priority).unshift(q);
    else this.delayed.push(q);
  }

  private releaseDelayed(now: number): void {
    const due = this.delayed.filter((q) => q.notBefore <= now);
    if (due.length === 0) return;
    this.delayed = this.delayed.filter((q) => q.notBefore > now);
    // A retried request keeps its place at the front of its lane.
    for (const q of due.reverse()) {
      q.readySince = now;
      this.lane(q.job.priority).unshift(q);
    }
  }

  private setStalled(reason: WaitReason | undefined, now: number): void {
    const blocked = reason !== undefined && reason !== 'in-flight';
    if (blocked && this.stalledSince === undefined) this.stalledSince = now;
    if (!blocked && this.stalledSince !== undefined) {
      this.counters.stalledMs += now - this.stalledSince;
      this.stalledSince = undefined;
    }
    this.waitReason = reason;
  }

  private scheduleWake(at: number): void {
    if (at === this.wakeAt) return;
    this.cancelWake?.();
    this.cancelWake = undefined;
    this.wakeAt = at;
    if (at === Infinity) return;
    this.cancelWake = this.clock.setTimer(() => {
      this.cancelWake = undefined;
      this.wakeAt = Infinity;
      this.pump();
    }, at - this.clock.now());
  }

  private count(label: string, status: string): void {
    const byStatus = (this.counters.requests[label] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    this.counters.total++;
  }
}
