// Desktop notifications (src/console/notify.ts) through a fake notify-send (and osascript) on PATH
// that records its arguments: each notice once, the settling command in it, and a missing tool or
// no desktop session never an error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conflictNotice,
  createNotifier,
  gitPushNotice,
  heldBackNotice,
  unreachableNotice,
  UNREACHABLE_NOTICE_MS,
  type NotifierOptions,
} from '../../src/console/notify.js';
import { reachability } from '../../src/journal/daemonStatus.js';

/** A folder on PATH with `name` as a script that appends its arguments (one per line, then a blank line) to a log. */
function fakeTool(name: string, exitCode = 0): { bin: string; log: string; calls(): string[][] } {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-notify-'));
  const log = path.join(bin, 'calls.log');
  fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\nprintf '\\n' >> '${log}'\nexit ${exitCode}\n`, {
    mode: 0o755,
  });
  return {
    bin,
    log,
    calls: () =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, 'utf8')
            .split('\n\n')
            .filter(Boolean)
            .map((c) => c.split('\n'))
        : [],
  };
}

function debugLines(): { lines: string[]; logger: NonNullable<NotifierOptions['logger']> } {
  const lines: string[] = [];
  return { lines, logger: { debug: (_obj, msg) => lines.push(msg) } };
}

const linuxDesktop = (bin: string) => ({ PATH: `${bin}:/usr/bin:/bin`, DISPLAY: ':0' });

describe('desktop notifications', () => {
  it('shows a notice with notify-send, once per key', async () => {
    const tool = fakeTool('notify-send');
    const n = createNotifier({ env: linuxDesktop(tool.bin), platform: 'linux' });
    expect(n.enabled).toBe(true);
    const notice = conflictNotice('/home/ana/Notes', { id: 3, path: 'Projects/Roadmap.md', copyPath: 'Projects/Roadmap (conflict 2026-11-21 093005).md' });
    expect(await n.notify(notice)).toBe(true);
    expect(await n.notify(notice)).toBe(false);
    expect(tool.calls()).toEqual([['--app-name=spacesync', 'spacesync: a conflict in Projects/Roadmap.md', notice.body]]);
    expect(notice.body).toContain('spacesync conflicts resolve 3 --dir /home/ana/Notes --keep mine|space|both');
  });

  it('on macOS through osascript, the texts as arguments (quotes and all), never inside the script', async () => {
    const tool = fakeTool('osascript');
    const n = createNotifier({ env: { PATH: `${tool.bin}:/usr/bin:/bin` }, platform: 'darwin' });
    await n.notify({ key: 'k', title: 'say "hi"', body: "it's \\ done" });
    const [call] = tool.calls();
    expect(call!.slice(-2)).toEqual(['say "hi"', "it's \\ done"]);
    expect(call!.join(' ')).toContain('display notification (item 2 of argv) with title (item 1 of argv)');
  });

  it('keys told before (kept across restarts) are not told again; new ones are handed back to be kept', async () => {
    const tool = fakeTool('notify-send');
    const kept: string[] = [];
    const n = createNotifier({ env: linuxDesktop(tool.bin), platform: 'linux', told: ['conflict:1'], onTold: (k) => kept.push(k) });
    expect(await n.notify({ key: 'conflict:1', title: 't', body: 'b' })).toBe(false);
    expect(await n.notify({ key: 'conflict:2', title: 't', body: 'b' })).toBe(true);
    expect(kept).toEqual(['conflict:2']);
  });

  it('without the tool: no notification, one debug line, no error', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-notify-'));
    const { lines, logger } = debugLines();
    const n = createNotifier({ env: { PATH: empty, DISPLAY: ':0' }, platform: 'linux', logger });
    expect(await n.notify({ key: 'a', title: 't', body: 'b' })).toBe(false);
    expect(await n.notify({ key: 'b', title: 't', body: 'b' })).toBe(false);
    expect(lines).toEqual(['notify-send is not installed: no desktop notifications']);
  });

  it('a tool that fails is a debug line too', async () => {
    const tool = fakeTool('notify-send', 1);
    const { lines, logger } = debugLines();
    const n = createNotifier({ env: linuxDesktop(tool.bin), platform: 'linux', logger });
    expect(await n.notify({ key: 'a', title: 't', body: 'b' })).toBe(false);
    expect(lines).toEqual(['notify-send exited with 1: the notification may not have shown']);
  });

  it('off without a desktop session (no display, or over SSH on a Mac), and when the config says so', async () => {
    const tool = fakeTool('notify-send');
    expect(createNotifier({ env: { PATH: tool.bin }, platform: 'linux' }).enabled).toBe(false);
    expect(createNotifier({ env: { PATH: tool.bin, WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux' }).enabled).toBe(true);
    expect(createNotifier({ env: { PATH: tool.bin, SSH_CONNECTION: '1 2 3 4' }, platform: 'darwin' }).enabled).toBe(false);
    const off = createNotifier({ env: linuxDesktop(tool.bin), platform: 'linux', enabled: false });
    expect(await off.notify({ key: 'a', title: 't', body: 'b' })).toBe(false);
    const { lines, logger } = debugLines();
    const noScreen = createNotifier({ env: { PATH: tool.bin }, platform: 'linux', enabled: true, logger });
    expect(await noScreen.notify({ key: 'a', title: 't', body: 'b' })).toBe(false);
    expect(lines).toHaveLength(1);
    expect(tool.calls()).toEqual([]);
  });
});

describe('the notices', () => {
  it('a held-back file says why and where to look', () => {
    const n = heldBackNotice('/home/ana/My Notes', { path: 'a.md', reason: 'undecodable', message: '"a.md" is not UTF-8 text.' });
    expect(n).toEqual({
      key: 'held-back:undecodable:a.md',
      title: 'spacesync: a.md is held back',
      body: `"a.md" is not UTF-8 text. (spacesync status --dir '/home/ana/My Notes' lists what is held back.)`,
    });
  });

  it('a held-back wipe and a refused cycle name the whole `spacesync approve` line', () => {
    const wipe = heldBackNotice('/home/ana/My Notes', {
      path: 'Plans/Q3.md',
      reason: 'held:wipe:Plans/Q3.md',
      message: '"Plans/Q3.md" holds no blocks any more.',
    });
    expect(wipe.body).toBe(
      `"Plans/Q3.md" holds no blocks any more. To go ahead: spacesync approve Plans/Q3.md --dir '/home/ana/My Notes' (or Approve in spacesync console).`,
    );
    const refused = heldBackNotice('/home/ana/My Notes', {
      path: '',
      reason: 'refusal:mass_delete_remote',
      message: 'This cycle would move 4 of 6 documents.',
    });
    expect(refused.title).toBe('spacesync: a cycle was refused');
    expect(refused.body).toBe(
      `This cycle would move 4 of 6 documents. To go ahead: spacesync approve --deletes --dir '/home/ana/My Notes' (or Approve in spacesync console).`,
    );
  });

  it('the space out of reach: only after ten minutes, once per outage', () => {
    const errors = [
      { at: '2026-11-21T10:00:00.000Z', code: 'network', message: 'The space did not answer.' },
      { at: '2026-11-21T10:05:00.000Z', code: 'timeout', message: 'No answer in 30 s.' },
    ];
    const reach = reachability('2026-11-21T09:59:00.000Z', errors);
    expect(reach).toEqual({ reachable: false, since: '2026-11-21T10:00:00.000Z', error: errors[1] });
    expect(unreachableNotice('/n', reach, new Date(Date.parse(reach.since!) + UNREACHABLE_NOTICE_MS - 1))).toBeUndefined();
    const n = unreachableNotice('/n', reach, new Date(Date.parse(reach.since!) + UNREACHABLE_NOTICE_MS));
    expect(n?.key).toBe('unreachable:2026-11-21T10:00:00.000Z');
    expect(n?.body).toContain('No answer in 30 s.');
    // A good cycle after the errors: reachable again, nothing to tell.
    expect(unreachableNotice('/n', reachability('2026-11-21T10:20:00.000Z', errors), new Date('2026-11-21T11:00:00Z'))).toBeUndefined();
  });

  it('a failing git push, once per run of failures', () => {
    const n = gitPushNotice('/n', { since: '2026-11-21T10:00:00.000Z', message: 'git push failed: the remote refused it.' });
    expect(n.key).toBe('git-push:2026-11-21T10:00:00.000Z');
    expect(n.body).toContain('git -C /n push');
  });
});
