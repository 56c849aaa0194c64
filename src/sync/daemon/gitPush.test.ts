import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openJournal, type Journal } from '../../journal/index.js';
import { GIT_PUSH_STATE, GitPusher, type GitPushState } from './gitPush.js';

let dir: string;
let journal: Journal;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-push-')));
  fs.mkdirSync(path.join(dir, 'mirror'));
  git(dir, 'init', '-q', '--bare', 'remote.git');
  const m = path.join(dir, 'mirror');
  git(m, 'init', '-q', '-b', 'main');
  git(m, 'config', 'user.name', 't');
  git(m, 'config', 'user.email', 't@t');
  git(m, 'remote', 'add', 'origin', path.join(dir, 'remote.git'));
  // Each push the pusher makes leaves a line here.
  fs.writeFileSync(path.join(m, '.git', 'hooks', 'pre-push'), `#!/bin/sh\necho push >> "${path.join(dir, 'pushes')}"\n`, { mode: 0o755 });
  journal = openJournal(':memory:');
});
afterEach(() => {
  journal.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const commit = (n: number) => {
  const m = path.join(dir, 'mirror');
  fs.writeFileSync(path.join(m, `n${n}.md`), `${n}\n`);
  git(m, 'add', '-A');
  git(m, 'commit', '-q', '-m', `c${n}`);
};
const pushes = () => (fs.existsSync(path.join(dir, 'pushes')) ? fs.readFileSync(path.join(dir, 'pushes'), 'utf8').split('\n').filter(Boolean).length : 0);

it('pushes at most one at a time: commits made while a push runs go with the next one', async () => {
  const p = new GitPusher({ root: path.join(dir, 'mirror'), remote: 'origin', journal, logger: pino({ level: 'silent' }) });
  commit(1);
  p.request();
  commit(2);
  p.request();
  p.request();
  await p.idle();
  p.close();
  expect(pushes()).toBe(2);
  expect(git(path.join(dir, 'remote.git'), 'rev-list', '--count', 'main').trim()).toBe('2');
  expect(journal.getState<GitPushState>(GIT_PUSH_STATE)).toMatchObject({ ok: true, unpushed: 0 });
});

it('a failed push is tried again after its wait, by itself', async () => {
  fs.rmSync(path.join(dir, 'remote.git'), { recursive: true });
  const told: boolean[] = [];
  const p = new GitPusher({
    root: path.join(dir, 'mirror'),
    remote: 'origin',
    journal,
    logger: pino({ level: 'silent' }),
    retryMs: 300,
    onChange: (s) => told.push(s.ok),
  });
  commit(1);
  p.request();
  await p.idle();
  expect(journal.getState<GitPushState>(GIT_PUSH_STATE)).toMatchObject({ ok: false });
  git(dir, 'init', '-q', '--bare', 'remote.git');
  for (let i = 0; i < 100 && journal.getState<GitPushState>(GIT_PUSH_STATE)?.ok !== true; i++) await new Promise((r) => setTimeout(r, 50));
  p.close();
  expect(told).toEqual([false, true]);
  expect(git(path.join(dir, 'remote.git'), 'rev-list', '--count', 'main').trim()).toBe('1');
});
