// Scenario 24 in CI: the chaos test (chaos.ts) on the short fixed set of seeds in
// test/scenarios/24-chaos/chaos.json; `npm run chaos -- --runs 200` runs long, `SEED=… npm run chaos` replays one.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../scenarios/harness.js';
import { describeFailure, planChaos, runChaos } from './chaos.js';

const ci = JSON.parse(fs.readFileSync(`${SCENARIOS_DIR}/24-chaos/chaos.json`, 'utf8')) as { seeds: number[]; operations: number; kills: number };

describe('chaos', () => {
  it('derives the space and the operations from the seed alone', () => {
    expect(planChaos(7, 25)).toEqual(planChaos(7, 25));
    expect(planChaos(7, 25)).not.toEqual(planChaos(8, 25));
    expect(planChaos(7, 25, 2).ops.filter((o) => o.kill)).toHaveLength(2);
  });

  for (const seed of ci.seeds) {
    it(`seed ${seed}: O1–O6 hold after random operations, kills and faults`, async () => {
      const r = await runChaos({ seed, operations: ci.operations, kills: ci.kills });
      if (!r.ok) throw new Error(describeFailure(r));
    }, 90_000);
  }
});
