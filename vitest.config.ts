import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Excalidraw's package imports modules without their extension (a bundler's habit): the test
    // runner resolves them for the scene-loader test.
    server: { deps: { inline: ['@excalidraw/excalidraw'] } },
  },
});
