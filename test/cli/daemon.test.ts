// The daemon as people run it, seen through the other commands: one daemon per folder (the lock),
// status naming the running daemon, a clean stop on SIGTERM that frees the folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { armFault } from '../client/admin.js';
import { linkIdOf, runCli, smallSpace, spawnCli, tempDir, writeConfig } from './cliHarness.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: smallSpace, limits: 'off', admin: true });
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

  it('a daemon whose .spacesync/ is deleted under it (git clean -fdx) stops with a message, and a daemon started there afterwards is the only one', async () => {
    const root = tempDir();
    const config = { link: server.baseUrl, poll: { minSeconds: 1, maxSeconds: 1 }, debounceMs: 50 };
    writeConfig(root, config);
    const first = spawnCli(['sync', '--dir', root]);
    await first.waitFor(/Pulled: 2 new/);
    fs.rmSync(path.join(root, '.spacesync'), { recursive: true, force: true });
    const ended = await first.done;
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(`The sync of ${root} stopped: its lock file (.spacesync/lock) was deleted or taken by another process while it ran.`);
    expect(ended.stdout + ended.stderr).not.toContain(linkIdOf(server.baseUrl));
    // What the user does next: set the folder up again and start it; the folder is not taken as new notes.
    writeConfig(root, config);
    const folders = (await (await fetch(`${server.baseUrl}/folders`)).json()) as { items: unknown[] };
    const again = await runCli(['sync', '--dir', root, '--once']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^spacesync: no journal: compared the folder with the space file by file; 4 file\(s\) in step\.$/m);
    expect(fs.existsSync(path.join(root, '.spacesync', 'lock'))).toBe(false);
    // No folder or document made twice in the space.
    expect(((await (await fetch(`${server.baseUrl}/folders`)).json()) as { items: unknown[] }).items).toEqual(folders.items);
  });

  it('tells the desktop once of a file held back (notify-send), however many polls find it so', async () => {
    const root = tempDir();
    const bin = tempDir('spacesync-bin-');
    const said = path.join(bin, 'said');
    fs.writeFileSync(path.join(bin, 'notify-send'), `#!/bin/sh\nprintf '%s|' "$@" >> "${said}"\necho >> "${said}"\n`, { mode: 0o755 });
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 1, maxSeconds: 1 }, debounceMs: 50 });
    const daemon = spawnCli(['sync', '--dir', root], {
      env: { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0', SSH_CONNECTION: undefined, SSH_TTY: undefined },
    });
    try {
      await daemon.waitFor(/Pulled: /);
      fs.writeFileSync(path.join(root, 'Unsorted/Inbox note.md'), '');
      await daemon.waitFor(/held back: "Unsorted\/Inbox note\.md" holds no blocks any more/);
      // A few more polls find it held back still.
      await new Promise((r) => setTimeout(r, 3_500));
      const lines = fs.readFileSync(said, 'utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      // With the whole line that sends it, beside this daemon.
      expect(lines[0]).toMatch(
        /^--app-name=spacesync\|spacesync: Unsorted\/Inbox note\.md is held back\|.*holds no blocks any more.*To go ahead: spacesync approve 'Unsorted\/Inbox note\.md' --dir \//,
      );
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
    }
  });

  it('with git.autoCommit, commits after every change on either side, naming the documents and the side', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 1, maxSeconds: 1 }, debounceMs: 50, git: { autoCommit: true } });
    const daemon = spawnCli(['sync', '--dir', root]);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    const until = async (what: string, cond: () => boolean) => {
      for (let i = 0; !cond(); i++) {
        if (i > 150) throw new Error(`gave up waiting for ${what}:\n${git('log', '--format=%s%n%b')}\n${JSON.stringify(daemon.output())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // Without optional locks: a status that refreshed the index would hold its lock while the daemon's `git add` runs.
    const clean = () => git('--no-optional-locks', 'status', '--porcelain') === '';
    try {
      await daemon.waitFor(/Pulled: /);
      await until('the first commit', () => fs.existsSync(path.join(root, '.git')) && clean() && git('rev-list', '--all', '--count').trim() === '1');
      // The two documents and the two task files (Tasks/Inbox.md, Tasks/Logbook.md).
      expect(git('log', '-1', '--format=%s')).toBe('spacesync: first backup of the mirror, 4 documents\n');

      // A rename and an in-place edit (as sed -i does it: a new file renamed over the old one).
      fs.renameSync(path.join(root, 'Projects/Roadmap.md'), path.join(root, 'Projects/Plans.md'));
      const note = path.join(root, 'Unsorted/Inbox note.md');
      fs.writeFileSync(`${note}.sedtmp`, fs.readFileSync(note, 'utf8').replace('hello world', 'hello from sed'));
      fs.renameSync(`${note}.sedtmp`, note);
      // The terminal names them, with what happened to each.
      await daemon.waitFor(/Pushed: .*Plans \(renamed from "Roadmap"\)/, 'stdout');
      await daemon.waitFor(/Pushed: .*Inbox note \(edited\)/, 'stdout');
      await until(
        'the local changes to be committed',
        () => clean() && /Plans/.test(git('log', '--format=%s')) && /Inbox note/.test(git('log', '--format=%s')),
      );
      const local = git('log', '--format=%s%n%b', 'HEAD~1..HEAD') + git('log', '--format=%s%n%b', '-1', 'HEAD~1');
      expect(local).toContain('(changed here)');
      expect(local).toContain('Changed here, sent to the space:');
      // Sent in the same push as the edit, the rename is listed with it; sent in a push of its own (the
      // watcher may report the two apart), the edit's commit already saw it in the folder.
      expect(local).toMatch(/- Projects\/Plans\.md: (renamed or )?moved from Projects\/Roadmap\.md/);
      expect(local).toMatch(/- Unsorted\/Inbox note\.md: edited/);

      // A change in the space: committed as pulled.
      const put = await fetch(`${server.baseUrl}/blocks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ blocks: [{ id: 'B-N', markdown: 'hello from the space' }] }),
      });
      expect(put.status).toBe(200);
      await until('the pulled change to be committed', () => clean() && git('log', '-1', '--format=%s').includes('from the space'));
      // The terminal's line and the commit come from the same report; which one the test sees first is the machine's.
      await daemon.waitFor(/^Pulled: 1 updated \(\d+ requests?\): Inbox note\.$/m, 'stdout');
      expect(git('log', '-1', '--format=%s%n%b')).toBe(
        'spacesync: Inbox note (from the space)\nChanged in the space, pulled:\n- Unsorted/Inbox note.md: updated\n\n',
      );
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
    }
  });

  it("an edit held by the service's rate limit for more than a few seconds is told on the terminal and in status", async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 30, maxSeconds: 30 }, debounceMs: 50 });
    const daemon = spawnCli(['sync', '--dir', root]);
    try {
      await daemon.waitFor(/Pulled: /);
      // Another client spends the budget: the service answers the edit's PUT with 429, Retry-After 5 s.
      await armFault(server, { match: { method: 'PUT', path: '/blocks' }, kind: '429', retryAfter: 5 });
      const note = path.join(root, 'Unsorted/Inbox note.md');
      fs.writeFileSync(note, fs.readFileSync(note, 'utf8').replace(/hello[^\n]*/, 'hello while the budget is spent'));
      await daemon.waitFor(/spacesync: waiting [45] s for the service's rate limit; your edit to Unsorted\/Inbox note\.md is queued\./, 'stdout');
      const waiting = await runCli(['status', '--dir', root]);
      expect(waiting.stdout).toMatch(/waiting {9}since .* for the service's rate limit \(it answered 429\), about \d s more; queued: Unsorted\/Inbox note\.md/);
      await daemon.waitFor(/Pushed: Inbox note \(edited\)/, 'stdout');
      const after = JSON.parse((await runCli(['status', '--dir', root, '--json'])).stdout) as { waiting: unknown; requests: { rateLimited: number } };
      expect(after.waiting).toBeNull();
      expect(after.requests.rateLimited).toBe(1);
    } finally {
      daemon.child.kill('SIGTERM');
      await daemon.done;
    }
  });
});
