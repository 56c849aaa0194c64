// The program as a user runs it: through bin/dev.js (the sources, as they are now), from this checkout.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { SPAWN_BIN } from './spawnBin.js';

const run = (...args: string[]) => spawnSync(process.execPath, [SPAWN_BIN, ...args], { encoding: 'utf8', env: { ...process.env, SPACESYNC_LINK: '' } });

describe('spacesync command line', () => {
  it('--help lists every command of the contract', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const cmd of ['server', 'sync', 'init', 'status', 'conflicts', 'plan', 'demo', 'service']) expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b`, 'm'));
  });

  it('an unknown command is a usage error (exit 64)', () => {
    const r = run('frobnicate');
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
