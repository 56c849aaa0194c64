// The scheduler's budgets: the service's limits (src/wire/limits.ts) with the numbers of the config's
// `budget` section and a time scale applied (tests and benchmarks run the server with `limitScale`,
// keeping the shape of the limits), and the share kept for user edits.
import { DEFAULT_RESERVE_PERCENT } from '../defaults.js';
import { SPEC_LIMITS, type SpecLimits } from '../wire/limits.js';

export type { BudgetLimit } from '../wire/limits.js';

export interface SchedulerLimits extends SpecLimits {
  /** Share (0..90 %) of the space's request and block budgets that background work leaves for user edits. */
  reservePercent: number;
}

/** The scheduler's limits when nothing is configured: the service's, at their own scale, with the default reserve. */
export const DEFAULT_LIMITS: SchedulerLimits = { ...SPEC_LIMITS, reservePercent: DEFAULT_RESERVE_PERCENT };

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
  const reserve = input.reservePercent ?? DEFAULT_LIMITS.reservePercent;
  if (!(reserve >= 0 && reserve <= 90)) throw new RangeError(`reservePercent must be between 0 and 90, got ${reserve}`);
  return {
    spaceRequests: { limit: input.requestsPerMinute ?? SPEC_LIMITS.spaceRequests.limit, windowMs: SPEC_LIMITS.spaceRequests.windowMs * scale },
    addressRequests: { limit: input.requestsPerAddress10s ?? SPEC_LIMITS.addressRequests.limit, windowMs: SPEC_LIMITS.addressRequests.windowMs * scale },
    blocks: { limit: input.blocksPerMinute ?? SPEC_LIMITS.blocks.limit, windowMs: SPEC_LIMITS.blocks.windowMs * scale },
    reservePercent: reserve,
  };
}
