// `spacesync server` as a user runs it: prints its base URL, serves, stops cleanly on SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPAWN_BIN } from '../spawnBin.js';
import { main } from '../../src/cli/main.js';

/** Servers a test started: one a failed test did not stop is stopped after it. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});

async function serve(...extra: string[]) {
  const child = spawn(
    process.execPath,
    [SPAWN_BIN, 'server', '--port', '0', '--seed', 'fixtures/spaces/demo.json', '--limits', 'off', '--link', 'cli-link-0001', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let out = '';
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    // With --admin the token line (stdout) and the warning (stderr) follow the link: wait for all three.
    const ready = () => {
      const m = /^spacesync server listening: (\S+)(?: \(on \S+\))?$/m.exec(out);
      if (m && (!extra.includes('--admin') || (/^spacesync server admin/m.test(out) && /admin routes are on/.test(err)))) resolve(m[1]!);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      ready();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      ready();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  return { url, stop, output: () => ({ out, err }) };
}

describe('spacesync server', () => {
  it('prints "spacesync server listening: <base url>", serves the seed, and exits 0 on SIGTERM', async () => {
    const { url, stop } = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/links\/cli-link-0001\/api\/v1$/);
    const r = await fetch(`${url}/connection`);
    expect(((await r.json()) as any).space.name).toBe('Demo Space');
    expect((await fetch(`${url}/reminders`)).status).toBe(200);
    expect(await stop()).toBe(0);
  });

  it('listens for SIGTERM before it prints its link, so a caller stopping it on that line stops it cleanly', async () => {
    // In this process: the line is printed synchronously to a pipe, and a caller reading it may
    // signal at once; the handler must already be there (else the default action kills it, its
    // temporary files left behind).
    let handled: boolean | undefined;
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      if (/listening: /.test(String(chunk))) {
        handled = process.listenerCount('SIGTERM') > 0;
        setImmediate(() => process.emit('SIGTERM'));
      }
      return true;
    });
    try {
      expect(await main(['node', 'spacesync', 'server', '--port', '0', '--limits', 'off'])).toBe(0);
    } finally {
      out.mockRestore();
    }
    expect(handled).toBe(true);
  });

  it('--shared-space makes reminders unavailable with an explicit error', async () => {
    const { url, stop } = await serve('--shared-space');
    const r = await fetch(`${url}/reminders`);
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).code).toBe('REMINDERS_UNAVAILABLE');
    expect(await stop()).toBe(0);
  });

  it('--admin warns that the admin routes are on and prints the admin token, which the routes need', async () => {
    const { url, stop, output } = await serve('--admin');
    const { out, err } = output();
    expect(err).toMatch(/warning: the test-only admin routes are on at http:\/\/127\.0\.0\.1:\d+\/__admin/);
    const token = /^spacesync server admin token: (\S+) \(send "Authorization: Bearer <token>"\)$/m.exec(out)![1]!;
    const admin = `${new URL(url).origin}/__admin/snapshot`;
    expect((await fetch(admin)).status).toBe(401);
    expect((await fetch(admin, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(await stop()).toBe(0);
  });

  it('--admin with --api-key takes the API key as the admin credential and never prints it', async () => {
    const { url, stop, output } = await serve('--admin', '--api-key', 'secret-key-9876');
    expect(output().out).toMatch(/admin routes: send "Authorization: Bearer <the API key>"/);
    expect(output().out + output().err).not.toContain('secret-key-9876');
    const admin = `${new URL(url).origin}/__admin/snapshot`;
    expect((await fetch(admin, { headers: { authorization: 'Bearer secret-key-9876' } })).status).toBe(200);
    expect(await stop()).toBe(0);
  });

  it('--public-url: the link and signed URLs name it, and the line says where the server listens', async () => {
    const { url, stop, output } = await serve('--public-url', 'https://space.example.com');
    expect(url).toBe('https://space.example.com/links/cli-link-0001/api/v1');
    const local = /\(on (http:\/\/127\.0\.0\.1:\d+)\)$/m.exec(output().out)![1]!;
    const api = `${local}/links/cli-link-0001/api/v1`;
    const docs = (await (await fetch(`${api}/documents`)).json()) as any;
    const up = await fetch(`${api}/upload?position=end&pageId=${docs.items[0].id}`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: 'png' });
    expect(((await up.json()) as any).assetUrl).toMatch(/^https:\/\/space\.example\.com\/assets\//);
    expect(await stop()).toBe(0);
  });

  it('--admin on a host other machines reach is refused (64) unless --admin-any-host', () => {
    const r = spawnSync(process.execPath, [SPAWN_BIN, 'server', '--port', '0', '--admin', '--host', '0.0.0.0'], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/refused on --host 0\.0\.0\.0.*--admin-any-host/);
  });

  it.each([
    [['--limits', 'sometimes'], /--limits must be spec or off/],
    [['--port', 'eighty'], /--port must be/],
    [['--limit-scale', '0'], /--limit-scale must be a positive number/],
    [['--timezone', 'Nowhere/Land'], /Unknown time zone/],
    [['--seed', 'no-such-file.json'], /Cannot read the seed fixture/],
  ])('refuses bad options with a usage error (%s)', (args, message) => {
    const r = spawnSync(process.execPath, [SPAWN_BIN, 'server', '--port', '0', ...args], { encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(message);
  });
});
