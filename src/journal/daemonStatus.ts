// What a running daemon leaves in the journal's key/value state for `spacesync status` (another
// process): its request counters and budget use, and its last errors. The daemon writes after
// each cycle and on each failure; status only reads. `lastCycle` is the cycle's own record.
import { redactText } from '../redact.js';
import type { Journal } from './Journal.js';
import { addRateSample } from './rateHistory.js';
import { OUT_OF_REACH_CODES } from '../errors.js';

export const STATUS_KEYS = {
  /** Written by the cycle when it completes: `{ at, …counts }` (the last successful cycle). */
  lastCycle: 'lastCycle',
  /** DaemonStats: the client's counters, as of `savedAt`. */
  daemon: 'status.daemon',
  /** StatusError[]: the most recent failures, newest last. */
  errors: 'status.errors',
  /** StatusRefusal: the last cycle refused by a safety check; removed by the next cycle that is not. */
  refusal: 'status.refusal',
  /** StatusWait: the user's edits waiting for the rate limit now; removed when they are sent. */
  wait: 'status.wait',
} as const;

export interface BudgetUse {
  used: number;
  limit: number;
  windowMs: number;
}

/** The part of the client's `stats()` that status shows (the client's ClientStats has these fields). */
export interface ClientCounters {
  total: number;
  rateLimited: number;
  retries: number;
  blocksSpent: number;
  errors: Record<string, number>;
  budgets: { space: BudgetUse; address: BudgetUse; blocks: BudgetUse };
}

export interface DaemonStats {
  /** When these numbers were taken. */
  savedAt: string;
  /** When the daemon started: the counters count from then. */
  startedAt: string;
  pid: number;
  /** Requests sent (retries included), 429 answers, retries, blocks read or written. */
  requests: number;
  rateLimited: number;
  retries: number;
  blocksSpent: number;
  /** Failed calls by error code. */
  errors: Record<string, number>;
  /** Each budget's use at `savedAt` (a request holds its place for one window after its answer). */
  budgets: { space: BudgetUse; address: BudgetUse; blocks: BudgetUse };
}

export interface StatusError {
  at: string;
  code: string;
  /** Redacted: what happened and what to do, as the user was told. */
  message: string;
}

/** How many errors are kept. */
export const KEPT_ERRORS = 10;

/** Records the client's counters; call after each cycle (and on a timer, if cycles are far apart). */
export function saveDaemonStats(journal: Journal, input: { stats: ClientCounters; startedAt: string; now: Date; pid?: number }): void {
  const { stats } = input;
  const value: DaemonStats = {
    savedAt: input.now.toISOString(),
    startedAt: input.startedAt,
    pid: input.pid ?? process.pid,
    requests: stats.total,
    rateLimited: stats.rateLimited,
    retries: stats.retries,
    blocksSpent: stats.blocksSpent,
    errors: { ...stats.errors },
    budgets: { space: { ...stats.budgets.space }, address: { ...stats.budgets.address }, blocks: { ...stats.budgets.blocks } },
  };
  // The minute-by-minute spending of the last hour (the console's chart) grows from the save before.
  const prev = readDaemonStats(journal);
  journal.setState(STATUS_KEYS.daemon, value);
  addRateSample(journal, prev, value);
}

const isBudget = (v: unknown): v is BudgetUse =>
  !!v && typeof v === 'object' && ['used', 'limit', 'windowMs'].every((k) => typeof (v as Record<string, unknown>)[k] === 'number');

/** The daemon's counters, or undefined when none were recorded (or the record is not of this shape). */
export function readDaemonStats(journal: Journal): DaemonStats | undefined {
  const v = journal.getState<Partial<DaemonStats>>(STATUS_KEYS.daemon);
  if (!v || typeof v !== 'object' || typeof v.savedAt !== 'string' || typeof v.requests !== 'number') return undefined;
  const b = v.budgets;
  if (!b || !isBudget(b.space) || !isBudget(b.address) || !isBudget(b.blocks)) return undefined;
  return {
    savedAt: v.savedAt,
    startedAt: typeof v.startedAt === 'string' ? v.startedAt : v.savedAt,
    pid: typeof v.pid === 'number' ? v.pid : 0,
    requests: v.requests,
    rateLimited: v.rateLimited ?? 0,
    retries: v.retries ?? 0,
    blocksSpent: v.blocksSpent ?? 0,
    errors: v.errors && typeof v.errors === 'object' ? v.errors : {},
    budgets: b,
  };
}

/** Adds a failure the user was told about; the last KEPT_ERRORS are kept. The link is masked. */
export function recordStatusError(journal: Journal, error: { at: Date | string; code: string; message: string }, secrets: readonly string[] = []): void {
  const entry: StatusError = {
    at: typeof error.at === 'string' ? error.at : error.at.toISOString(),
    code: error.code,
    message: redactText(error.message, secrets),
  };
  journal.transaction(() => journal.setState(STATUS_KEYS.errors, [...readStatusErrors(journal), entry].slice(-KEPT_ERRORS)));
}

export function readStatusErrors(journal: Journal): StatusError[] {
  const v = journal.getState<unknown>(STATUS_KEYS.errors);
  if (!Array.isArray(v)) return [];
  return v.filter(
    (e): e is StatusError => !!e && typeof e === 'object' && typeof e.at === 'string' && typeof e.code === 'string' && typeof e.message === 'string',
  );
}

export interface LastCycle {
  /** When the last successful cycle started. */
  at: string;
  /** The cycle's own counts, as it recorded them. */
  counts: Record<string, number>;
}

export function readLastCycle(journal: Journal): LastCycle | undefined {
  const v = journal.getState<Record<string, unknown>>(STATUS_KEYS.lastCycle);
  if (!v || typeof v !== 'object' || typeof v.at !== 'string') return undefined;
  const counts = Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number'));
  return { at: v.at, counts };
}

export interface StatusRefusal {
  at: string;
  reason: string;
  /** What the user was told: what would have happened, and that nothing did. */
  message: string;
  /** The files (or documents) the cycle would have deleted; at most KEPT_DELETES of them. */
  deletes: string[];
  /** How many it would have deleted in all. */
  deleteCount: number;
  /** The identity of the whole set of deletes (sync's deletesKey): what `spacesync approve --deletes` approves. */
  key?: string;
}

export const KEPT_DELETES = 50;

/** Records the refusal of a cycle (or, with null, that the last cycle was not refused). */
export function recordRefusal(journal: Journal, refusal: Omit<StatusRefusal, 'deleteCount'> | null): void {
  if (refusal === null) {
    if (journal.getState(STATUS_KEYS.refusal) !== undefined) journal.deleteState(STATUS_KEYS.refusal);
    return;
  }
  journal.setState(STATUS_KEYS.refusal, { ...refusal, deletes: refusal.deletes.slice(0, KEPT_DELETES), deleteCount: refusal.deletes.length });
}

export function readRefusal(journal: Journal): StatusRefusal | undefined {
  const v = journal.getState<Partial<StatusRefusal>>(STATUS_KEYS.refusal);
  if (!v || typeof v !== 'object' || typeof v.at !== 'string' || typeof v.message !== 'string') return undefined;
  const deletes = Array.isArray(v.deletes) ? v.deletes.filter((d): d is string => typeof d === 'string') : [];
  return {
    at: v.at,
    reason: typeof v.reason === 'string' ? v.reason : 'refused',
    message: v.message,
    deletes,
    deleteCount: typeof v.deleteCount === 'number' ? v.deleteCount : deletes.length,
    ...(typeof v.key === 'string' ? { key: v.key } : {}),
  };
}

export interface StatusWait {
  /** When the wait began, and when it is expected to end. */
  since: string;
  until: string;
  /** Which budget: retry-after (the service answered 429), space, address or blocks. */
  reason: string;
  /** The files whose edits wait (empty when a full cycle's push waits). */
  paths: string[];
}

/** Records that the user's edits wait for a budget, or (null) that they no longer do. */
export function recordWait(journal: Journal, wait: StatusWait | null): void {
  if (wait) journal.setState(STATUS_KEYS.wait, { ...wait, paths: wait.paths.slice(0, KEPT_DELETES) });
  else if (journal.getState(STATUS_KEYS.wait) !== undefined) journal.deleteState(STATUS_KEYS.wait);
}

export function readWait(journal: Journal): StatusWait | undefined {
  const v = journal.getState<Partial<StatusWait>>(STATUS_KEYS.wait);
  if (!v || typeof v !== 'object' || typeof v.since !== 'string' || typeof v.until !== 'string') return undefined;
  return {
    since: v.since,
    until: v.until,
    reason: typeof v.reason === 'string' ? v.reason : 'space',
    paths: Array.isArray(v.paths) ? v.paths.filter((p): p is string => typeof p === 'string') : [],
  };
}

// Whether the space answered lately, from what the daemon left in the journal: the last cycle that
// completed (it reached the space) and the errors recorded since. A network failure, a timeout or
// an unavailable service after the last good cycle means the space is out of reach since the first
// of them.
export interface Reachability {
  /** null: unknown (no cycle has completed, none has failed to reach it). */
  reachable: boolean | null;
  /** The first failure to reach it since the last good cycle. */
  since: string | null;
  /** The newest such failure. */
  error: StatusError | null;
}

export function reachability(lastGoodCycle: string | null, errors: readonly StatusError[]): Reachability {
  const after = lastGoodCycle === null ? errors : errors.filter((e) => Date.parse(e.at) > Date.parse(lastGoodCycle));
  const failing = after.filter((e) => OUT_OF_REACH_CODES.has(e.code));
  if (failing.length > 0) return { reachable: false, since: failing[0]!.at, error: failing.at(-1)! };
  return { reachable: lastGoodCycle === null ? null : true, since: null, error: null };
}
