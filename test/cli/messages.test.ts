// What the commands say when something is wrong: a link never shown whole, whatever its form and
// whichever command reads it; one error, one message, its true cause; hints that name the real
// problem; and JSON on stdout for `--json`, even for an error.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { REPO, runCli, smallSpace, tempDir, writeConfig } from './cliHarness.js';

const ID = 'keyedLinkId1234567890abc';
/** What must never be printed: the id past the four characters a masked link may show. */
const HIDDEN = ID.slice(4);

/** Every way a link can be mistyped: each still holds the secret id. */
const MALFORMED = [
  `http://127.0.0.1:8788/link/${ID}/api/v1`,
  ID,
  `http://127.0.0.1:8788/links/${ID}`,
  `127.0.0.1:8788/links/${ID}/api/v1`,
  `http://127.0.0.1:8788/links/${ID}/api/v2`,
  `http://127.0.0.1:8788/api/v1?link=${ID}`,
  `https://127.0.0.1:8788/links/${ID}/api/v1 x`,
];

/** Runs main() in this process (the whole matrix would cost a second per spawned run) and collects what it prints. */
async function runInProcess(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  let output = '';
  const capture = (chunk: unknown) => {
    output += String(chunk);
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const code = await main(['node', 'spacesync', ...argv]);
    return { code, output };
  } finally {
    out.mockRestore();
    err.mockRestore();
    for (const k of Object.keys(env))
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  }
}

let keyed: RunningServer;
let synced: string;
const KEY = 'key-messages-0123456789';

beforeAll(async () => {
  keyed = await startServer({ port: 0, seed: smallSpace, limits: 'off', apiKey: KEY });
  synced = tempDir();
  writeConfig(synced, { link: keyed.baseUrl, apiKey: KEY });
  const r = await runCli(['sync', '--dir', synced, '--once']);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await keyed.close();
});

describe('a malformed link is never printed whole', () => {
  it('by any command, whether it comes from the config file, --link or SPACESYNC_LINK', async () => {
    const seen: string[] = [];
    for (const link of MALFORMED) {
      const root = tempDir();
      writeConfig(root, { link });
      const bare = tempDir();
      const runs: Array<[string[], Record<string, string>]> = [
        [['status', '--dir', root], {}],
        [['status', '--dir', root, '--json'], {}],
        [['sync', '--dir', root, '--once'], {}],
        [['sync', '--dir', root, '--dry-run'], {}],
        [['plan', '--dir', root], {}],
        [['plan', '--dir', root, '--json'], {}],
        [['conflicts', '--dir', root], {}],
        [['conflicts', '--dir', root, '--json'], {}],
        [['conflicts', 'resolve', '1', '--dir', root], {}],
        [['sync', '--dir', bare, '--once', '--link', link], {}],
        [['plan', '--dir', bare, '--link', link], {}],
        [['sync', '--dir', bare, '--once'], { SPACESYNC_LINK: link }],
        [['status', '--dir', bare], { SPACESYNC_LINK: link }],
        [['init', path.join(bare, 'new'), '--link', link], {}],
        [['init', path.join(bare, 'new')], { SPACESYNC_LINK: link }],
      ];
      for (const [argv, env] of runs) {
        const r = await runInProcess(argv, env);
        expect(r.code, `${argv.join(' ')} with ${link}: ${r.output}`).not.toBe(0);
        expect(r.output, `${argv.join(' ')} with ${link}`).not.toContain(HIDDEN);
        seen.push(r.output);
      }
    }
    // The config error still says which field is wrong, and shows the host to recognise it by.
    expect(seen.join('\n')).toContain('link: must be a connection link');
    expect(seen.join('\n')).toContain('(got http://127.0.0.1:8788/… (');
  });

  it('nor by the spawned program', async () => {
    const root = tempDir();
    writeConfig(root, { link: MALFORMED[0] });
    const runs = await Promise.all([runCli(['status', '--dir', root]), runCli(['sync', '--dir', root, '--once', '--link', MALFORMED[1]!])]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(`${r.stdout}${r.stderr}`).not.toContain(HIDDEN);
      expect(r.stderr).toContain('link: must be a connection link');
    }
  });
});

describe('one error, one message', () => {
  it('a wrong or missing API key is said once, with no false network warning', async () => {
    const wrong = tempDir();
    fs.cpSync(synced, wrong, { recursive: true });
    writeConfig(wrong, { link: keyed.baseUrl, apiKey: 'not-the-key' });
    const none = tempDir();
    fs.cpSync(synced, none, { recursive: true });
    writeConfig(none, { link: keyed.baseUrl });
    const [a, b] = await Promise.all([runCli(['sync', '--dir', wrong, '--once']), runCli(['sync', '--dir', none, '--once'])]);
    expect(a.code).toBe(1);
    expect(a.stderr.match(/rejected the API key/g)).toHaveLength(1);
    expect(b.code).toBe(1);
    expect(b.stderr.match(/wants an API key/g)).toHaveLength(1);
    for (const r of [a, b]) {
      expect(r.stderr).not.toMatch(/Could not reach|ECONNRESET|warning:/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('hints that name the real problem', () => {
  it('--dir naming a file says it is a file (exit 64), not a question of permissions', async () => {
    const file = path.join(tempDir(), 'README.md');
    fs.writeFileSync(file, '# a file\n');
    for (const argv of [
      ['status', '--dir', file],
      ['sync', '--dir', file, '--once'],
      ['conflicts', '--dir', file],
    ]) {
      const r = await runInProcess(argv);
      expect(r.code, r.output).toBe(64);
      expect(r.output).toContain(`${file} is a file, not a folder`);
      expect(r.output).not.toMatch(/ENOTDIR|permissions/);
    }
  });

  it('sync --dir on a missing folder without a link is refused (exit 2), advises init, not --force, and creates nothing, even with --force', async () => {
    const missing = path.join(tempDir(), 'Notes');
    for (const argv of [
      ['sync', '--dir', missing, '--once'],
      ['sync', '--dir', missing, '--once', '--force'],
    ]) {
      const r = await runInProcess(argv);
      expect(r.code, r.output).toBe(2);
      expect(r.output).toContain(`spacesync init ${missing} --link URL`);
      expect(r.output).not.toContain('--force');
      expect(fs.existsSync(missing)).toBe(false);
    }
  });
});

describe('--json answers in JSON, errors included', () => {
  it('status, conflicts and plan on a folder that is not a mirror print a JSON error object on stdout', async () => {
    const plain = tempDir();
    const runs = await Promise.all([runCli(['status', '--dir', plain, '--json']), runCli(['conflicts', '--dir', plain, '--json'])]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      const parsed = JSON.parse(r.stdout) as { error: { code: string; message: string; exitCode: number } };
      expect(parsed.error.code).toBe('config_missing');
      expect(parsed.error.message).toContain('is not a spacesync folder');
      expect(parsed.error.exitCode).toBe(1);
    }
    const plan = await runInProcess(['plan', '--dir', plain, '--json']);
    expect(plan.code).toBe(1);
    expect((JSON.parse(plan.output) as { error: { code: string } }).error.code).toBe('config_missing');
  });
});

describe('the README keeps up with the program', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const usage = /## Commands\n\n```\n([\s\S]*?)```/.exec(readme)![1]!;

  it("lists every option each command's --help offers, on that command's line", async () => {
    // Every command the program lists has a line of its own.
    const top = await runInProcess(['--help']);
    const commands = [...top.output.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands).toContain('restore');
    for (const c of commands) expect(usage, c).toMatch(new RegExp(`^spacesync ${c} `, 'm'));
    for (const command of [['init'], ['sync'], ['status'], ['conflicts'], ['conflicts', 'resolve'], ['history'], ['restore'], ['plan'], ['demo'], ['server']]) {
      const help = await runInProcess([...command, '--help']);
      expect(help.code).toBe(0);
      const options = [...help.output.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!).filter((o) => o !== '--help');
      expect(options.length, command.join(' ')).toBeGreaterThan(0);
      const line = usage
        .split(/\n(?=spacesync )/)
        .find((l) => l.startsWith(`spacesync ${command.join(' ')} `) || l.startsWith(`spacesync ${command.join(' ')}  `))!;
      expect(line, command.join(' ')).toBeDefined();
      for (const o of options) expect(line, `${command.join(' ')} ${o}`).toContain(o);
    }
  });

  it('names every exit code the program uses, 64 included, and docs/api.md exists where the docs point', () => {
    for (const code of ['0', '1', '2', '3', '4', '64']) expect(readme).toContain(`**${code}**`);
    for (const doc of ['docs/server.md', 'docs/dialect.md']) {
      const text = fs.readFileSync(path.join(REPO, doc), 'utf8');
      expect(text).not.toMatch(/space-api\.md|service-behaviour\.md/);
      expect(text).toContain('(api.md');
    }
    const api = fs.readFileSync(path.join(REPO, 'docs/api.md'), 'utf8');
    for (const section of [
      '## Endpoints',
      '## Limits',
      '## Errors',
      '`GET /documents`',
      '`PUT /blocks`',
      'Retry-After',
      '50 per 10 s',
      '100 per 60 s',
      '20,000 per 60 s',
    ])
      expect(api).toContain(section);
  });
});

describe('the progress bar', () => {
  it('is cleared before the summary, so the summary starts its own line', async () => {
    const root = tempDir();
    writeConfig(root, { link: keyed.baseUrl, apiKey: KEY });
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    let r: { code: number; output: string };
    try {
      r = await runInProcess(['sync', '--dir', root, '--once']);
    } finally {
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
    }
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('pulling [');
    const summary = r.output.indexOf('Pulled: ');
    expect(summary).toBeGreaterThan(0);
    // Written in order to one terminal: the bar's last drawing is wiped before the summary.
    expect(r.output.slice(0, summary).endsWith('\r\u001b[2K')).toBe(true);
    expect(r.output.slice(summary)).not.toContain('pulling [');
  });
});
