// Every acceptance scenario, one folder each (space.json, steps.json, expect.json),
// run against the real server and the real spacesync by harness.ts; the oracles O1–O6 after each.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario, scenarioDirs } from './harness.js';

describe('acceptance scenarios', () => {
  for (const dir of scenarioDirs()) {
    const name = path.basename(dir);
    const { knownBug, knownBugFails } = loadScenario(dir).expect;
    if (!knownBug) {
      it(name, () => runScenario(dir), 120_000);
      continue;
    }
    // A scenario that shows an open bug must fail, and in the way the bug explains; once the bug is
    // fixed it passes, this test fails, and the marker comes off.
    it(`${name} (open bug: ${knownBug})`, async () => {
      const error = await runScenario(dir).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      if (!error) throw new Error(`${name} passes: the open bug looks fixed; remove knownBug from its expect.json`);
      expect(error.message).toMatch(new RegExp(knownBugFails ?? '.'));
    }, 120_000);
  }
});
