// The scheduler's budgets: the service's limits (src/wire/limits.ts) with the numbers of the config's
// `budget` section and a time scale applied (tests and benchmarks run the server with `limitScale`,
// keeping the shape of the limits), and the share kept for user edits; and the budget the service reports.
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

// Reads the budget the service reports in its response headers: `X-RateLimit-*` (the space's
// request budget), `X-BlockBudget-*` (the space's block budget) and `Retry-After`.
export interface BudgetReport {
  limit: number | undefined;
  remaining: number;
  /** Absolute time (ms) at which the service's window resets; undefined when not sent. */
  resetAt: number | undefined;
}

export type Headers = Readonly<Record<string, string | undefined>>;

const num = (v: string | undefined): number | undefined => {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : undefined;
};

/**
 * A reset value as services send it: seconds from now (the usual form, fractions allowed),
 * epoch seconds, epoch milliseconds, or an HTTP date.
 */
export function parseReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const n = num(value);
  if (n === undefined) {
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : date;
  }
  if (n < 0) return undefined;
  if (n > 1e12) return n;
  if (n > 1e9) return n * 1000;
  return now + n * 1000;
}

function report(headers: Headers, prefix: string, now: number): BudgetReport | undefined {
  const remaining = num(headers[`${prefix}-remaining`]);
  if (remaining === undefined || remaining < 0) return undefined;
  const limit = num(headers[`${prefix}-limit`]);
  return { limit: limit !== undefined && limit > 0 ? limit : undefined, remaining, resetAt: parseReset(headers[`${prefix}-reset`], now) };
}

/** `headers` has lower-case names. */
export function requestBudgetReport(headers: Headers, now: number): BudgetReport | undefined {
  return report(headers, 'x-ratelimit', now);
}

export function blockBudgetReport(headers: Headers, now: number): BudgetReport | undefined {
  return report(headers, 'x-blockbudget', now);
}

/**
 * How long `Retry-After` asks us to wait, in ms: seconds or an HTTP date (compared with the
 * response's own `Date` when it has one, so a skewed local clock does not shorten the wait).
 * A `Retry-After-Ms` header, when present, is the same wait without rounding to whole seconds.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const exact = num(headers['retry-after-ms']);
  if (exact !== undefined && exact >= 0) return exact;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = num(value);
  if (seconds !== undefined) return seconds >= 0 ? seconds * 1000 : undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const served = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
  return Math.max(0, at - (Number.isNaN(served) ? now : served));
}
