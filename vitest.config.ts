import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** The acceptance scenarios: minutes of real processes, so `npm run scenarios` runs them, not `npm test`. */
export const SCENARIOS = 'test/scenarios/scenarios.test.ts';

export const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
  // Excalidraw's package imports modules without their extension (a bundler's habit): the test
  // runner resolves them for the scene-loader test.
  server: { deps: { inline: ['@excalidraw/excalidraw'] } },
};

export default defineConfig({
  test: {
    ...shared,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // At least two test files at a time: vitest's default (one worker fewer than cores) runs them
    // one by one on 2 cores, though most of a file's time is spent waiting on the processes,
    // servers and timers it starts, not computing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker's files share one module graph instead of importing the sources afresh for each
    // file: 108 s of the run's imports became 19 (the whole run 332–370 s → 271 s). The tests keep no
    // state between files: each starts its own servers, folders and sessions, and restores what it
    // stubs (process.stdout, environment variables).
    isolate: false,
    // The compiled program, built from the sources for this run, is what the tests spawn.
    globalSetup: ['test/globalSetup.ts'],
    exclude: [...configDefaults.exclude, SCENARIOS],
  },
});
