// Off-site backups: with git.autoCommit and git.push, each backup commit is pushed to the branch's
// upstream (here a local bare repository); a failed push is said once, kept for status, tried again,
// and `sync --once` waits for its push before it exits.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, smallSpace, tempDir, writeConfig } from './cliHarness.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: smallSpace, limits: 'off' });
});
afterAll(async () => {
  await server.close();
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

it('pushes each backup commit to the upstream; a failure is said, kept for status, and the next run pushes what waited', async () => {
  const root = tempDir();
  const remote = path.join(tempDir('spacesync-remote-'), 'backup.git');
  writeConfig(root, { link: server.baseUrl, git: { autoCommit: true, push: true } });
  // The mirror's repository and its upstream, as a user sets them up; the remote is not there yet.
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'remote', 'add', 'origin', remote);
  git(root, 'config', 'branch.main.remote', 'origin');
  git(root, 'config', 'branch.main.merge', 'refs/heads/main');

  const first = await runCli(['sync', '--dir', root, '--once']);
  expect(first.code).toBe(1);
  expect(first.stderr).toMatch(/spacesync: The git backup of .* could not be pushed \(.*\); .* tries again after .*git -C .* push/);
  const failing = JSON.parse((await runCli(['status', '--dir', root, '--json'])).stdout) as { gitPush: { ok: boolean; message: string } };
  expect(failing.gitPush).toMatchObject({ ok: false });
  expect((await runCli(['status', '--dir', root])).stdout).toMatch(/git push\s+failed .*tried again/);

  // The remote comes; a change in the space makes the next commit, and both go out.
  git(path.dirname(remote), 'init', '-q', '--bare', 'backup.git');
  await fetch(`${server.baseUrl}/blocks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ blocks: [{ id: 'B-N', markdown: 'hello, pushed' }] }),
  });
  const second = await runCli(['sync', '--dir', root, '--once']);
  expect(second.code, second.stderr).toBe(0);
  expect(second.stdout).toContain('spacesync: the git backup is pushed again.');
  expect(git(remote, 'rev-list', '--count', 'main').trim()).toBe('2');
  expect(git(remote, 'log', '-1', '--format=%s', 'main')).toContain('Inbox note (from the space)');
  const ok = JSON.parse((await runCli(['status', '--dir', root, '--json'])).stdout) as { gitPush: { ok: boolean; unpushed: number } };
  expect(ok.gitPush).toMatchObject({ ok: true, unpushed: 0 });
  expect(fs.existsSync(path.join(root, '.spacesync', 'lock'))).toBe(false);
});
