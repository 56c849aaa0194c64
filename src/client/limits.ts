// The service's rate budgets as docs/api.md states them, and how to scale their windows
// (tests and benchmarks run the server with `limitScale`, keeping the shape of the limits).

export interface BudgetLimit {
  limit: number;
  windowMs: number;
}

export interface SchedulerLimits {
  /** Requests per space, shared by every client of the space. */
  spaceRequests: BudgetLimit;
  /** Requests per public source address, shared by every space reached from this machine. */
  addressRequests: BudgetLimit;
  /** Blocks read or written per space. */
  blocks: BudgetLimit;
  /** Share (0..90 %) of the space's request and block budgets that background work leaves for user edits. */
  reservePercent: number;
}

export const SPEC_LIMITS: SchedulerLimits = {
  spaceRequests: { limit: 100, windowMs: 60_000 },
  addressRequests: { limit: 50, windowMs: 10_000 },
  blocks: { limit: 20_000, windowMs: 60_000 },
  reservePercent: 20,
};

export interface LimitsInput {
  /** Multiplies every window (0.01: 100 requests per 0.6 s), as the server's `limitScale` does. */
  scale?: number;
  requestsPerMinute?: number;
  requestsPerAddress10s?: number;
  blocksPerMinute?: number;
  reservePercent?: number;
}

/** The spec's limits, with the numbers of the config's `budget` section and a time scale applied. */
export function resolveLimits(input: LimitsInput = {}): SchedulerLimits {
  const scale = input.scale ?? 1;
  if (!(scale > 0)) throw new RangeError(`limit scale must be positive, got ${scale}`);
  const reserve = input.reservePercent ?? SPEC_LIMITS.reservePercent;
  if (!(reserve >= 0 && reserve <= 90)) throw new RangeError(`reservePercent must be between 0 and 90, got ${reserve}`);
  return {
    spaceRequests: { limit: input.requestsPerMinute ?? SPEC_LIMITS.spaceRequests.limit, windowMs: SPEC_LIMITS.spaceRequests.windowMs * scale },
    addressRequests: { limit: input.requestsPerAddress10s ?? SPEC_LIMITS.addressRequests.limit, windowMs: SPEC_LIMITS.addressRequests.windowMs * scale },
    blocks: { limit: input.blocksPerMinute ?? SPEC_LIMITS.blocks.limit, windowMs: SPEC_LIMITS.blocks.windowMs * scale },
    reservePercent: reserve,
  };
}
