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
