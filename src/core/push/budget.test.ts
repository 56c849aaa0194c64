import { describe, expect, it } from 'vitest';
import { costOf, fitBudget, reserveOf } from './budget.js';
import type { PlanStep } from './plan.js';

const step = (blocks: number, n: number): PlanStep => ({ method: 'PUT', path: '/blocks', blocks, docs: [`D${n}`], describe: `step ${n}` });
const plan = [step(10, 1), step(300, 2), step(5, 3), step(0, 4)];

describe('fitBudget', () => {
  it('takes every step when the budget allows', () => {
    expect(fitBudget(plan, { requests: 100, blocks: 20_000 })).toEqual({ now: plan, later: [] });
  });

  it('stops at the first step that does not fit, keeping plan order', () => {
    const f = fitBudget(plan, { requests: 100, blocks: 200 });
    expect(f.now).toEqual([plan[0]]);
    expect(f.later).toEqual(plan.slice(1));
    expect(f.short).toBe('blocks');
    expect(fitBudget(plan, { requests: 2, blocks: 20_000 })).toMatchObject({ now: plan.slice(0, 2), short: 'requests' });
  });

  it("keeps the reserve from background work but not from the user's edits", () => {
    const reserve = reserveOf({ requests: 100, blocks: 20_000 }, 20);
    expect(reserve).toEqual({ requests: 20, blocks: 4_000 });
    expect(fitBudget(plan, { requests: 22, blocks: 20_000 }, { reserve }).now.length).toBe(2);
    expect(fitBudget(plan, { requests: 22, blocks: 20_000 }, { reserve, userEdit: true }).now.length).toBe(4);
    expect(fitBudget(plan, { requests: 10, blocks: 20_000 }, { reserve }).now).toEqual([]);
  });

  it("adds up a plan's cost", () => {
    expect(costOf(plan)).toEqual({ requests: 4, blocks: 315 });
  });
});
