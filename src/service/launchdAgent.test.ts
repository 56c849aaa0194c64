// The launchd agent: what it runs, and its wrapper run for real under /bin/sh, so the exit codes
// launchd sees (and restarts on) are the ones the systemd unit restarts on.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAUNCHD_WRAPPER, launchdAgent, launchdLabel, launchdProgramArguments } from './launchdAgent.js';
import { NO_RESTART_EXIT_CODES } from './serviceHost.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-launchd-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
/** Stands in for spacesync: exits with EXIT_CODE, or on SIGTERM writes TERMED and exits 0. */
const script = path.join(tmp, 'fake spacesync.mjs');
fs.writeFileSync(
  script,
  `
import fs from 'node:fs';
if (process.env.EXIT_CODE) process.exit(Number(process.env.EXIT_CODE));
process.on('SIGTERM', () => { fs.writeFileSync(process.env.TERMED, process.argv.slice(2).join(' ')); process.exit(0); });
fs.writeFileSync(process.env.READY, '');
setInterval(() => {}, 1000);
`,
);
const target = { node: process.execPath, script, dir: '/Users/you/My Notes' };

describe('the launchd agent', () => {
  it('runs node and spacesync by absolute path on the folder, at login and after a failure', () => {
    const plist = launchdAgent(target);
    expect(plist).toContain(`<key>Label</key><string>${launchdLabel(target.dir)}</string>`);
    expect(launchdLabel(target.dir)).toBe('com.spacesync.sync.Users-you-My\\x20Notes');
    for (const arg of [process.execPath, script, 'sync', '--dir', target.dir]) expect(plist).toContain(`<string>${arg}</string>`);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict><key>SuccessfulExit<\/key><false\/><\/dict>/);
    expect(plist).toContain('<key>RunAtLoad</key><true/>');
    expect(plist).not.toContain('--dir ');
  });

  it.each([0, 1, 2, 3, 64, 70])('exit %i of the daemon: launchd sees the exit a restart decision needs', (code) => {
    const [sh, ...args] = launchdProgramArguments(target);
    const r = spawnSync(sh!, args, { env: { ...process.env, EXIT_CODE: String(code) } });
    // 2 and 64 wait for a person, as RestartPreventExitStatus says in the systemd unit: a clean exit,
    // which KeepAlive { SuccessfulExit: false } does not restart. Every other failure stays a failure.
    expect(r.status).toBe(NO_RESTART_EXIT_CODES.includes(code) ? 0 : code);
  });

  it('sets its trap before it starts the daemon, so no signal finds the shell without it', () => {
    const lines = LAUNCHD_WRAPPER.split('\n');
    const trap = lines.findIndex((l) => l.startsWith('trap '));
    expect(trap).toBeGreaterThanOrEqual(0);
    expect(trap).toBeLessThan(lines.findIndex((l) => l.startsWith('"$@" &')));
  });

  it("passes launchd's SIGTERM on to the daemon and ends as the daemon does", async () => {
    const ready = path.join(tmp, 'ready');
    const termed = path.join(tmp, 'termed');
    const [sh, ...args] = launchdProgramArguments(target);
    const child = spawn(sh!, args, { env: { ...process.env, READY: ready, TERMED: termed }, stdio: 'ignore' });
    for (let i = 0; !fs.existsSync(ready); i++) {
      if (i > 200) throw new Error('the daemon never started');
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(fs.readFileSync(termed, 'utf8')).toBe(`sync --dir ${target.dir}`);
  });
});
