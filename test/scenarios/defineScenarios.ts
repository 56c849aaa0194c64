// The acceptance scenarios as tests, dealt over several test files (every `parts`-th folder from
// `part`) so the test runner's workers share them: one file of every scenario ran alone for minutes.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenario, scenarioDirs } from './harness.js';

export function defineScenarios(part: number, parts: number): void {
  describe(`acceptance scenarios (part ${part + 1} of ${parts})`, () => {
    scenarioDirs().forEach((dir, i) => {
      if (i % parts !== part) return;
      const name = path.basename(dir);
      const { knownBug, knownBugFails } = loadScenario(dir).expect;
      if (!knownBug) {
        it(name, () => runScenario(dir), 120_000);
        return;
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
    });
  });
}
