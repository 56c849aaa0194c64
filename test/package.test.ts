// The package as people install it: `npm pack` builds dist/ and the tarball, `npm install -g` puts it
// into a temporary prefix, and the installed command (no tsx, no checkout) prints its version and
// help, serves a space, syncs it, and runs the demo. It compiles better-sqlite3 on the way, a minute
// or more, so it runs in CI (CI=true; `.ci/run` sets it) and not in a developer's `npm test`. The
// lockfile's check (no install) runs everywhere.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli, spawnCli, tempDir, type SpawnOptions } from './cli/cliHarness.js';

const run = promisify(execFile);
const INSTALL_MS = 15 * 60_000;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

describe('the lockfile', () => {
  it('satisfies every range and peer range in the tree, so `npm install` has no peer conflict to override and warn of', async () => {
    // From package-lock.json alone (a second or two, no install): npm ls exits 1 on an invalid peer.
    const r = await run('npm', ['ls', '--all', '--package-lock-only'], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );
    expect(`${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /\b(invalid|missing)\b|UNMET (PEER )?DEPENDENCY|^npm error/.test(l))).toEqual([]);
    expect(r.code).toBe(0);
  });
});

describe.runIf(process.env.CI === 'true')('the npm package', () => {
  const tmp = tempDir('spacesync-package-');
  const prefix = path.join(tmp, 'prefix');
  const installed = path.join(prefix, 'lib', 'node_modules', 'spacesync');
  let pack: PackResult;
  let installOutput = '';
  // The installed command runs through its `#!/usr/bin/env node` line, as it does for a user.
  const opts = (): SpawnOptions => ({
    command: path.join(prefix, 'bin', 'spacesync'),
    cwd: tmp,
    env: { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` },
  });

  beforeAll(async () => {
    // The compiled program packed is the one this run built from the sources (test/globalSetup.ts):
    // pack's own `prepare` would remove dist/ and build it again while the other test files, run
    // beside this one, spawn it.
    const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    pack = (JSON.parse(packed.stdout) as PackResult[])[0]!;
    process.stdout.write(
      `package: ${pack.filename}, ${(pack.size / 1024).toFixed(0)} KiB packed, ${(pack.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${pack.files.length} files\n`,
    );
    // npm 11.16 and newer list the install scripts nobody approved: better-sqlite3's build of its
    // native module, and a local tarball's prepare (which npm runs only for links). The README's
    // command approves both, as a user does: a local package by its absolute file: path.
    const tarball = path.join(tmp, pack.filename);
    const [major, minor] = (await run('npm', ['--version'])).stdout.trim().split('.').map(Number) as [number, number];
    const approve = major > 11 || (major === 11 && minor >= 16) ? [`--allow-scripts=better-sqlite3,file:${tarball}`] : [];
    const install = await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', ...approve, tarball], {
      cwd: tmp,
      maxBuffer: 64 * 1024 * 1024,
    });
    installOutput = `${install.stdout}${install.stderr}`;
  }, INSTALL_MS);

  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('holds the compiled program, its type declarations, the demo space, the systemd unit and the console page, and no tests, benchmarks or other fixtures', () => {
    const files = pack.files.map((f) => f.path);
    expect(files).toContain('dist/cli/bin.js');
    expect(files).toContain('dist/client/index.d.ts');
    expect(files).toContain('dist/cli/main.js.map');
    // The example config is what config errors point to.
    const beside = ['package.json', 'README.md', 'fixtures/spaces/demo.json', 'sync.config.example.json', 'systemd/spacesync@.service'];
    for (const f of beside) expect(files).toContain(f);
    // The console's page is served as it is written: no build step makes it.
    for (const f of ['index.html', 'main.js', 'style.css']) expect(files).toContain(`src/console/page/${f}`);
    const outside = files.filter((f) => !f.startsWith('dist/') && !f.startsWith('src/console/page/') && !beside.includes(f));
    expect(outside).toEqual([]);
    expect(files.filter((f) => /\.test\.|testSupport|testDir|testArbitraries/.test(f))).toEqual([]);
  });

  it('installs without a warning: no dependency that refuses this Node (EBADENGINE), no peer conflict, nothing deprecated', () => {
    expect(installOutput.split('\n').filter((l) => /^npm warn/i.test(l))).toEqual([]);
  });

  it('installs a command that prints its version and its help, without tsx', async () => {
    expect(fs.existsSync(path.join(installed, 'node_modules', 'tsx'))).toBe(false);
    const version = await runCli(['--version'], opts());
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe((JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
    const help = await runCli(['--help'], opts());
    expect(help.code).toBe(0);
    for (const cmd of ['server', 'sync', 'init', 'status', 'demo', 'service', 'console']) expect(help.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b`, 'm'));
  });

  it('serves the demo space with `spacesync server` and mirrors it with `init` and `sync --once`', async () => {
    const server = spawnCli(
      ['server', '--port', '0', '--seed', path.join(installed, 'fixtures', 'spaces', 'demo.json'), '--limits', 'off', '--link', 'package-link-0001'],
      opts(),
    );
    try {
      await server.waitFor(/^spacesync server listening: \S+$/m, 'stdout');
      const link = /^spacesync server listening: (\S+)$/m.exec(server.output().stdout)![1]!;
      const root = path.join(tmp, 'Notes');
      const init = await runCli(['init', root, '--link', link], opts());
      expect(init.code, init.stderr).toBe(0);
      const sync = await runCli(['sync', '--once', '--dir', root], opts());
      expect(sync.code, sync.stderr).toBe(0);
      expect(fs.readFileSync(path.join(root, 'Unsorted', 'Quick idea.md'), 'utf8')).toContain('What if daily notes could pull in open t');
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
    }
  });

  it('serves the console page and its library from the installed package, offline', async () => {
    const root = path.join(tmp, 'Console notes');
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify({ link: 'http://127.0.0.1:9/links/package-link-0003/api/v1' }), {
      mode: 0o600,
    });
    const c = spawnCli(['console', '--dir', root, '--no-open'], opts());
    try {
      await c.waitFor(/^spacesync console: \S+$/m, 'stdout');
      const url = /^spacesync console: (\S+)$/m.exec(c.output().stdout)![1]!;
      const login = await fetch(url, { redirect: 'manual' });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const origin = new URL(url).origin;
      for (const p of ['/', '/app/main.js', '/vendor/preact.mjs', '/vendor/hooks.mjs', '/vendor/htm.mjs', '/api/mirrors']) {
        expect((await fetch(`${origin}${p}`, { headers: { cookie } })).status, p).toBe(200);
      }
    } finally {
      c.child.kill('SIGINT');
      await c.done;
    }
  });

  it("installs a folder's service from the package's systemd template, running the installed command", async () => {
    const root = path.join(tmp, 'Service notes');
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    fs.writeFileSync(path.join(root, '.spacesync', 'config.json'), JSON.stringify({ link: 'http://127.0.0.1:9/links/package-link-0002/api/v1' }), {
      mode: 0o600,
    });
    const units = path.join(tmp, 'units');
    const env = { ...opts().env, SPACESYNC_SERVICE_UNIT_DIR: units, SPACESYNC_SERVICE_CONTROL: 'true' };
    const r = await runCli(['service', 'install', '--dir', root], { ...opts(), env });
    expect(r.code, r.stderr).toBe(0);
    const [name] = fs.readdirSync(units);
    const unit = fs.readFileSync(path.join(units, name!), 'utf8');
    expect(unit).toContain(`ExecStart="${process.execPath}" "${fs.realpathSync(path.join(installed, 'dist', 'cli', 'bin.js'))}" "sync" "--dir" "${root}"`);
    const template = fs.readFileSync(path.join(installed, 'systemd', 'spacesync@.service'), 'utf8');
    expect(unit.slice(unit.indexOf('[Install]'))).toBe(template.slice(template.indexOf('[Install]')));
  });

  it('runs `spacesync demo` from the installed package and stops on Ctrl-C', async () => {
    const root = path.join(tmp, 'demo-space');
    const demo = spawnCli(['demo', root], opts());
    await demo.waitFor(/Pulled: \d+ new/);
    demo.child.kill('SIGINT');
    const ended = await demo.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, 'Unsorted', 'Quick idea.md'))).toBe(true);
  });
});
