// `spacesync console` as a user runs it: the address it prints (with the token of this start), the
// mirrors it shows by default, the browser it opens (through a private forwarding file, so the
// token is never on a command line), and Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemdUnitName } from '../../src/service/systemdUnit.js';
import { runCli, spawnCli, tempDir, type CliProcess } from '../cli/cliHarness.js';
import { consoleMirror, type ConsoleMirror } from './consoleMirror.js';

let made: ConsoleMirror;
beforeAll(async () => {
  made = await consoleMirror();
}, 60_000);
afterAll(async () => {
  await made?.server.close();
});

const ADDRESS = /^spacesync console: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]{43})$/m;

/** No service manager of this machine: an empty unit folder and a control program that does nothing. */
function noServices(units = tempDir('spacesync-units-')): Record<string, string> {
  return { SPACESYNC_SERVICE_UNIT_DIR: units, SPACESYNC_SERVICE_CONTROL: '/bin/true', DISPLAY: '', WAYLAND_DISPLAY: '' };
}

async function started(p: CliProcess): Promise<{ origin: string; token: string }> {
  await p.waitFor(ADDRESS, 'stdout');
  const m = ADDRESS.exec(p.output().stdout)!;
  return { origin: m[1]!, token: m[3]! };
}

async function stop(p: CliProcess) {
  p.child.kill('SIGINT');
  const r = await p.done;
  expect(r.code, r.stderr).toBe(0);
}

describe('spacesync console', () => {
  it('prints its address with a fresh token, lets in only that token, and stops on Ctrl-C', async () => {
    const p = spawnCli(['console', '--dir', made.root, '--port', '0', '--no-open'], { env: noServices() });
    try {
      const { origin, token } = await started(p);
      expect(p.output().stdout).toContain(`Showing ${made.root}. Ctrl-C stops it.`);
      expect((await fetch(`${origin}/api/mirrors`)).status).toBe(401);
      const login = await fetch(`${origin}/?token=${token}`, { redirect: 'manual' });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const r = await fetch(`${origin}/api/mirrors`, { headers: { cookie } });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { mirrors: Array<{ dir: string }> }).mirrors.map((m) => m.dir)).toEqual([made.root]);
    } finally {
      await stop(p);
    }
    // Another start, another token.
    const again = spawnCli(['console', '--dir', made.root, '--no-open'], { env: noServices() });
    try {
      const second = await started(again);
      expect(second.token).not.toBe(ADDRESS.exec(p.output().stdout)![3]);
    } finally {
      await stop(again);
    }
  });

  it('shows the mirrors installed as services and the current folder when it is a mirror, without --dir', async () => {
    const units = tempDir('spacesync-units-');
    const other = tempDir();
    fs.cpSync(made.root, other, { recursive: true });
    fs.writeFileSync(path.join(units, systemdUnitName(other)), '[Unit]\n');
    const p = spawnCli(['console', '--no-open'], { env: noServices(units), cwd: made.root });
    try {
      await started(p);
      expect(p.output().stdout).toContain(`Showing 2 mirrors: ${other}, ${made.root}.`);
    } finally {
      await stop(p);
    }
  });

  it('with no mirror to show, or a port that is none, says what to pass', async () => {
    const none = await runCli(['console', '--no-open'], { env: noServices(), cwd: tempDir() });
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('No mirror to show: this folder is not one and none is installed as a service. Pass one with --dir DIR');
    const port = await runCli(['console', '--dir', made.root, '--port', 'eighty'], { env: noServices() });
    expect(port.code).toBe(64);
    expect(port.stderr).toContain('--port must be a port number from 0 to 65535');
  });

  it('opens the browser where a desktop session is present, through a private file rather than the address on a command line', async () => {
    const bin = tempDir('spacesync-bin-');
    const log = path.join(bin, 'opened');
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${log}'\ncp "$1" '${log}.html'\n`, { mode: 0o755 });
    const p = spawnCli(['console', '--dir', made.root, '--verbose'], {
      env: { ...noServices(), DISPLAY: ':0', PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    try {
      const { origin, token } = await started(p);
      await p.waitFor(/opened with xdg-open/, 'stderr');
      for (let i = 0; i < 100 && !fs.existsSync(`${log}.html`); i++) await new Promise((r) => setTimeout(r, 20));
      const opened = fs.readFileSync(log, 'utf8');
      expect(opened).not.toContain(token);
      expect(fs.statSync(opened).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(opened)).mode & 0o077).toBe(0);
      expect(fs.readFileSync(`${log}.html`, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${origin}/?token=${token}">`);
    } finally {
      await stop(p);
    }
    // Gone with the console.
    expect(fs.existsSync(fs.readFileSync(log, 'utf8'))).toBe(false);
  });

  it('opens nothing without a desktop session', async () => {
    const p = spawnCli(['console', '--dir', made.root, '--verbose'], { env: noServices() });
    try {
      await started(p);
      await p.waitFor(/no desktop session/, 'stderr');
    } finally {
      await stop(p);
    }
  });
});
