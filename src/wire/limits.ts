// The service's rate budgets as docs/api.md "Limits" states them: the one set of numbers the
// client's scheduler, the server's limiter and the config's `budget` defaults all read.

export interface BudgetLimit {
  limit: number;
  windowMs: number;
}

export interface SpecLimits {
  /** Requests per space, shared by every client of the space. */
  spaceRequests: BudgetLimit;
  /** Requests per public source address, shared by every space reached from it. */
  addressRequests: BudgetLimit;
  /** Blocks read or written per space. */
  blocks: BudgetLimit;
}

export const SPEC_LIMITS: SpecLimits = {
  spaceRequests: { limit: 100, windowMs: 60_000 },
  addressRequests: { limit: 50, windowMs: 10_000 },
  blocks: { limit: 20_000, windowMs: 60_000 },
};
