// Every acceptance scenario of scenarios.md, one folder each (space.json, steps.json, expect.json),
// run against the real server and the real spacesync by harness.ts; the oracles O1–O6 after each.
import path from 'node:path';
import { describe, it } from 'vitest';
import { runScenario, scenarioDirs } from './harness.js';

describe('acceptance scenarios', () => {
  for (const dir of scenarioDirs()) {
    it(path.basename(dir), () => runScenario(dir), 120_000);
  }
});
