// Which steps of a plan fit in what is left of the request and block budgets now, keeping a
// reserve for the user's own edits; the rest waits for the next window. Steps run in plan order,
// so what fits is a prefix: a later step may depend on an earlier one (refs, anchors, deletes last).
import type { PlanStep } from './plan.js';

export interface Budget {
  requests: number;
  blocks: number;
}

export interface FitOptions {
  /** Kept for user edits: background work (pulls, polling, bulk) does not spend it. */
  reserve?: Budget;
  /** This plan carries the user's own edits: it may spend the reserve. */
  userEdit?: boolean;
}

export interface Fit {
  now: PlanStep[];
  later: PlanStep[];
  /** What ran out first, when something waits. */
  short?: 'requests' | 'blocks';
}

/** The reserve of a budget window: `percent` of each allowance, rounded up. */
export function reserveOf(window: Budget, percent: number): Budget {
  return { requests: Math.ceil((window.requests * percent) / 100), blocks: Math.ceil((window.blocks * percent) / 100) };
}

export function fitBudget(steps: readonly PlanStep[], remaining: Budget, opts: FitOptions = {}): Fit {
  const keep = opts.userEdit ? { requests: 0, blocks: 0 } : (opts.reserve ?? { requests: 0, blocks: 0 });
  let requests = remaining.requests - keep.requests;
  let blocks = remaining.blocks - keep.blocks;
  let i = 0;
  let short: Fit['short'];
  for (; i < steps.length; i++) {
    const s = steps[i]!;
    if (requests < 1) {
      short = 'requests';
      break;
    }
    if (s.blocks > blocks) {
      short = 'blocks';
      break;
    }
    requests -= 1;
    blocks -= s.blocks;
  }
  const fit: Fit = { now: steps.slice(0, i), later: steps.slice(i) };
  if (short) fit.short = short;
  return fit;
}

/** Requests and blocks a plan needs in all. */
export function costOf(steps: readonly PlanStep[]): Budget {
  return { requests: steps.length, blocks: steps.reduce((a, s) => a + s.blocks, 0) };
}
