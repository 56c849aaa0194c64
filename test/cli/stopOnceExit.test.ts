// A `sync --once` stopped by a signal is not in step: it ends with the signal's exit code as shells
// expect it (130 for SIGINT, 143 for SIGTERM) and never says "In step with the space".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSpace } from '../../src/server/fixture/generateSpace.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, spawnCli, tempDir, writeConfig } from './cliHarness.js';

const space = generateSpace({ documents: 80, blocksPerDocument: 2, folders: 0, seed: 33 });

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: space, limits: 'off' });
});
afterAll(async () => {
  await server.close();
});

const filesIn = (dir: string): number => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md')).length : 0);

/** Starts `sync --once`, sends `signal` once a few documents are written, and returns how it ended. */
async function stopDuringPull(root: string, signal: NodeJS.Signals, after: number) {
  const run = spawnCli(['sync', '--dir', root, '--once']);
  for (const end = Date.now() + 30_000; filesIn(path.join(root, 'Unsorted')) < after;) {
    if (Date.now() > end) throw new Error(`fewer than ${after} documents were pulled in 30 s: ${JSON.stringify(run.output())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(run.child.exitCode).toBeNull(); // the pull is still under way
  run.child.kill(signal);
  return run.done;
}

it('a signal during the first pull ends --once with 143 (SIGTERM) or 130 (SIGINT), never "In step"', { timeout: 60_000 }, async () => {
  const root = tempDir();
  // Five requests a second: 80 documents take some 16 s, the signal certainly comes mid-pull.
  writeConfig(root, { link: server.baseUrl, budget: { requestsPerMinute: 300, reservePercent: 0 } });

  const term = await stopDuringPull(root, 'SIGTERM', 5);
  expect(term.code, term.stderr).toBe(143);
  expect(term.stdout).not.toMatch(/In step/);
  expect(term.stdout).toMatch(/Stopped before the end/);
  const pulled = filesIn(path.join(root, 'Unsorted'));
  expect(pulled).toBeLessThan(80);

  const int = await stopDuringPull(root, 'SIGINT', pulled + 5);
  expect(int.code, int.stderr).toBe(130);
  expect(int.stdout).not.toMatch(/In step/);

  // Run to its end (the budget out of the way), the same command is in step and exits 0.
  writeConfig(root, { link: server.baseUrl, budget: { requestsPerMinute: 100_000 } });
  const rest = await runCli(['sync', '--dir', root, '--once']);
  expect(rest.code, rest.stderr).toBe(0);
  expect(filesIn(path.join(root, 'Unsorted'))).toBe(80);
  const idle = await runCli(['sync', '--dir', root, '--once']);
  expect(idle.code).toBe(0);
  expect(idle.stdout).toMatch(/In step with the space/);
});
