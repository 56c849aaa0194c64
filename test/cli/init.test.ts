// `spacesync init` as a user runs it, against the real server: the link is checked, the config is
// written with mode 0600, and every bad link or key ends with exit 1, a message saying what to do,
// and nothing written.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { linkIdOf, runCli, smallSpace, tempDir, writeConfig, type CliResult } from './cliHarness.js';

let open: RunningServer;
let keyed: RunningServer;
const KEY = 'key-0123456789-abcdef';

beforeAll(async () => {
  open = await startServer({ port: 0, seed: smallSpace, limits: 'off' });
  keyed = await startServer({ port: 0, seed: smallSpace, limits: 'off', apiKey: KEY });
});
afterAll(async () => {
  await open.close();
  await keyed.close();
});

const configFile = (root: string) => path.join(root, '.spacesync', 'config.json');
const readConfig = (root: string) => JSON.parse(fs.readFileSync(configFile(root), 'utf8')) as Record<string, unknown>;

function expectNoSecret(r: CliResult, ...secrets: string[]): void {
  for (const s of secrets) {
    expect(r.stdout).not.toContain(s);
    expect(r.stderr).not.toContain(s);
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('spacesync init', () => {
  it('checks the link, writes the config with mode 0600 and prints the space and the next command', async () => {
    const root = path.join(tempDir(), 'Notes');
    const r = await runCli(['init', root, '--link', open.baseUrl]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"Field Notes"');
    expect(r.stdout).toContain('America/Toronto');
    expect(r.stdout).toContain(`spacesync sync --dir ${root}`);
    expectNoSecret(r, linkIdOf(open.baseUrl));
    expect(readConfig(root)).toEqual({ link: open.baseUrl });
    expect(fs.statSync(configFile(root)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile(root))).mode & 0o077).toBe(0);
  });

  it('--mode backup writes the mode and says what it means; a mistyped mode is refused and writes nothing', async () => {
    const root = path.join(tempDir(), 'Backup');
    const r = await runCli(['init', root, '--link', open.baseUrl, '--mode', 'backup']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Backup mode: everything from the space arrives here, nothing here is sent to it');
    expect(readConfig(root)).toEqual({ link: open.baseUrl, mode: 'backup' });
    const other = path.join(tempDir(), 'Typo');
    const bad = await runCli(['init', other, '--link', open.baseUrl, '--mode', 'backups']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--mode takes "two-way" or "backup" (got "backups"). Nothing was changed.');
    expect(fs.existsSync(configFile(other))).toBe(false);
  });

  it('takes the link from SPACESYNC_LINK and the key from --api-key, and stores both', async () => {
    const root = tempDir();
    const r = await runCli(['init', root, '--api-key', KEY], { env: { SPACESYNC_LINK: keyed.baseUrl } });
    expect(r.code).toBe(0);
    expect(readConfig(root)).toEqual({ link: keyed.baseUrl, apiKey: KEY });
    expectNoSecret(r, linkIdOf(keyed.baseUrl), KEY);
  });

  it('quotes a folder with spaces in the next command so it can be pasted', async () => {
    const root = path.join(tempDir(), 'My Notes');
    const r = await runCli(['init', root, '--link', open.baseUrl]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`spacesync sync --dir '${root}'`);
  });

  it('refuses a malformed link without echoing it or writing anything', async () => {
    const root = path.join(tempDir(), 'm');
    const r = await runCli(['init', root, '--link', 'https://space.example/link/SECRETSECRET/api']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a connection link: it must look like https:\/\/<host>\/links\/<LINK_ID>\/api\/v1/);
    expect(r.stderr).toMatch(/Copy the connection link again from the app/);
    expectNoSecret(r, 'SECRETSECRET');
    expect(fs.existsSync(root)).toBe(false);
  });

  it('without any link, says how to give one', async () => {
    const r = await runCli(['init', tempDir()]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/--link https:\/\/<host>\/links\/<LINK_ID>\/api\/v1 \(or set SPACESYNC_LINK\)/);
  });

  it('a dead link (404) is link_not_found: exit 1, what to do, nothing written', async () => {
    const root = path.join(tempDir(), 'dead');
    const dead = open.baseUrl.replace(/\/links\/[^/]+\//, '/links/REVOKEDLINK0001/');
    const r = await runCli(['init', root, '--link', dead]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not know this connection link \(404\)/);
    expect(r.stderr).toMatch(/Nothing was written/);
    expectNoSecret(r, 'REVOKEDLINK0001');
    expect(fs.existsSync(root)).toBe(false);
  });

  it('a link that needs a key: a missing key and a wrong key each say what to do', async () => {
    const root = path.join(tempDir(), 'k');
    const missing = await runCli(['init', root, '--link', keyed.baseUrl]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/needs an API key, and none was given.*--api-key KEY/);
    const wrong = await runCli(['init', root, '--link', keyed.baseUrl, '--api-key', 'not-the-key-at-all']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/did not accept the API key.*run init again with the right --api-key/);
    expectNoSecret(wrong, 'not-the-key-at-all', linkIdOf(keyed.baseUrl));
    expect(fs.existsSync(root)).toBe(false);
  });

  it('a service that cannot be reached: exit 1, the host named, what to check', async () => {
    const port = await closedPort();
    const root = path.join(tempDir(), 'n');
    const r = await runCli(['init', root, '--link', `http://127.0.0.1:${port}/links/UNREACHABLE99/api/v1`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Could not reach the service at 127.0.0.1:${port}`);
    expect(r.stderr).toMatch(/Check the network connection/);
    expectNoSecret(r, 'UNREACHABLE99');
    expect(fs.existsSync(root)).toBe(false);
  });

  it('keeps a config that holds another link unless --force, which keeps the other options and drops the old key', async () => {
    const root = tempDir();
    writeConfig(root, { link: keyed.baseUrl, apiKey: KEY, poll: { minSeconds: 5 } });
    const refused = await runCli(['init', root, '--link', open.baseUrl]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already connected to another link .*--force/);
    expectNoSecret(refused, linkIdOf(keyed.baseUrl), linkIdOf(open.baseUrl));
    expect(readConfig(root).link).toBe(keyed.baseUrl);

    const forced = await runCli(['init', root, '--link', open.baseUrl, '--force']);
    expect(forced.code).toBe(0);
    expect(readConfig(root)).toEqual({ link: open.baseUrl, poll: { minSeconds: 5 } });
    expect(fs.statSync(configFile(root)).mode & 0o777).toBe(0o600);
  });

  it('run again with the same link, keeps the options and tightens the mode of a file made by hand', async () => {
    const root = tempDir();
    writeConfig(root, { link: open.baseUrl, ignore: ['*.pdf'] });
    fs.chmodSync(configFile(root), 0o644);
    const r = await runCli(['init', root, '--link', open.baseUrl]);
    expect(r.code).toBe(0);
    expect(readConfig(root)).toEqual({ link: open.baseUrl, ignore: ['*.pdf'] });
    expect(fs.statSync(configFile(root)).mode & 0o777).toBe(0o600);
  });

  it('refuses a file where the folder should be (usage, exit 64)', async () => {
    const file = path.join(tempDir(), 'file.txt');
    fs.writeFileSync(file, 'x');
    const r = await runCli(['init', file, '--link', open.baseUrl]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/is a file, not a folder/);
  });

  it('the link is normalised before it is compared and stored: …/api/v1/ then …/api/v1 is the same link', async () => {
    const root = tempDir();
    const first = await runCli(['init', root, '--link', `${open.baseUrl}/`]);
    expect(first.code, first.stderr).toBe(0);
    expect(readConfig(root).link).toBe(open.baseUrl);
    const again = await runCli(['init', root, '--link', open.baseUrl]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('already connected');
    expect(readConfig(root).link).toBe(open.baseUrl);
  });

  it('https:// to a server that speaks plain HTTP says so and suggests http://, not a network problem', async () => {
    const root = path.join(tempDir(), 'Notes');
    const r = await runCli(['init', root, '--link', open.baseUrl.replace(/^http:/, 'https:')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not speak TLS');
    expect(r.stderr).toContain('try the link with http://');
    expect(r.stderr).not.toMatch(/Check the network|EPROTO/);
    expect(fs.existsSync(root)).toBe(false);
    expectNoSecret(r, linkIdOf(open.baseUrl));
  });
});
