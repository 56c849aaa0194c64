// The daemon as people run it, seen through the other commands: one daemon per folder (the lock),
// status naming the running daemon, a clean stop on SIGTERM that frees the folder.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { linkIdOf, runCli, smallSpace, spawnCli, tempDir, writeConfig } from './cliHarness.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: smallSpace, limits: 'off' });
});
afterAll(async () => {
  await server.close();
});

describe('the sync daemon with status and the lock', () => {
  it('one daemon per folder: a second one is refused, status names the running one, SIGTERM stops it and frees the folder', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 1, maxSeconds: 2 } });
    const daemon = spawnCli(['sync', '--dir', root]);
    await daemon.waitFor(/Pulled: 2 new/);

    const second = await runCli(['sync', '--dir', root, '--once']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`${root} is already being synced by`);
    expect(second.stderr).toContain(String(daemon.child.pid));

    const running = JSON.parse((await runCli(['status', '--dir', root, '--json'])).stdout);
    expect(running.daemon).toMatchObject({ running: true, pid: daemon.child.pid });
    expect(running.lastCycle).not.toBeNull();

    daemon.child.kill('SIGTERM');
    const ended = await daemon.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, '.spacesync', 'lock'))).toBe(false);
    const after = await runCli(['status', '--dir', root]);
    expect(after.stdout).toMatch(/daemon\s+not running; start it with `spacesync sync --dir /);
    for (const r of [ended, second, after]) expect(r.stdout + r.stderr).not.toContain(linkIdOf(server.baseUrl));
  });
});
