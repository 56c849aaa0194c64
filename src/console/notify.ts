// Desktop notifications for what needs the person at the screen: a new conflict, a file held back,
// the space out of reach for more than ten minutes, a git push that fails. Each is told once (by its
// key), with the command that settles it. notify-send on Linux, osascript on macOS; where the tool is
// missing, or nobody sits at the screen, nothing is shown and one debug line says why: a notification
// never fails the daemon.
import { spawn } from 'node:child_process';
import type { ConflictRecord } from '../journal/index.js';
import type { HeldBackFile } from '../sync/index.js';
import { localTime, shellQuote } from '../cli/format.js';
import { approveCommand } from '../cli/approval.js';
import { desktopSession } from './openBrowser.js';
import type { Reachability } from '../journal/daemonStatus.js';

export interface Notice {
  /** Told once per key: the same key again shows nothing. */
  key: string;
  title: string;
  body: string;
}

export interface NotifierOptions {
  /** The config's `notify`; unset: on where a desktop session is present. */
  enabled?: boolean;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  logger?: { debug(obj: object, msg: string): void };
  /** Keys told before (kept by the caller across restarts), and told of each new one. */
  told?: Iterable<string>;
  onTold?: (key: string) => void;
  /** How long a notifying program may take before it is given up on. */
  timeoutMs?: number;
}

export interface Notifier {
  readonly enabled: boolean;
  /** Shows the notice unless its key was told already; resolves to whether it was shown. Never rejects. */
  notify(notice: Notice): Promise<boolean>;
}

/** How long the space may be out of reach before the person is told. */
export const UNREACHABLE_NOTICE_MS = 10 * 60_000;

/** The program and its arguments that show a notification on this platform. */
export function notifyCommand(kind: 'linux' | 'macos', n: Pick<Notice, 'title' | 'body'>): [string, string[]] {
  if (kind === 'macos') {
    // The texts go in as arguments, never into the script: no quoting to get wrong.
    return ['osascript', ['-e', 'on run argv', '-e', 'display notification (item 2 of argv) with title (item 1 of argv)', '-e', 'end run', n.title, n.body]];
  }
  return ['notify-send', ['--app-name=spacesync', n.title, n.body]];
}

export function createNotifier(opts: NotifierOptions = {}): Notifier {
  const env = opts.env ?? process.env;
  const kind = desktopSession(env, opts.platform ?? process.platform);
  const enabled = opts.enabled ?? kind !== null;
  const told = new Set(opts.told ?? []);
  const debug = (obj: object, msg: string) => opts.logger?.debug(obj, msg);
  let missing = false;
  if (enabled && kind === null)
    debug({}, 'desktop notifications are on, but there is no desktop session (no DISPLAY or WAYLAND_DISPLAY, or over SSH): none are shown');

  const run = (program: string, args: string[]) =>
    new Promise<boolean>((resolve) => {
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(program, args, { env, stdio: 'ignore' });
      } catch (e) {
        resolve(false);
        debug({ err: e }, `${program} could not be started: no desktop notification`);
        return;
      }
      const timer = setTimeout(() => child.kill(), opts.timeoutMs ?? 5000);
      // A program that cannot start reports an error, then a close: the first one says it.
      let ended = false;
      child.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (ended) return;
        ended = true;
        if (e.code === 'ENOENT') {
          // Said once: a machine without the tool stays without it.
          if (!missing) debug({}, `${program} is not installed: no desktop notifications`);
          missing = true;
        } else debug({ err: e }, `${program} failed: no desktop notification`);
        resolve(false);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (ended) return;
        ended = true;
        if (code !== 0) debug({ code }, `${program} exited with ${code}: the notification may not have shown`);
        resolve(code === 0);
      });
    });

  return {
    enabled,
    async notify(notice) {
      if (!enabled || kind === null || told.has(notice.key)) return false;
      told.add(notice.key);
      opts.onTold?.(notice.key);
      if (missing) return false;
      const [program, args] = notifyCommand(kind, notice);
      return run(program, args);
    },
  };
}

/** A conflict the daemon just kept. */
export function conflictNotice(root: string, c: Pick<ConflictRecord, 'id' | 'path' | 'copyPath'>): Notice {
  return {
    key: `conflict:${c.id}`,
    title: `spacesync: a conflict in ${c.path}`,
    body: `Both sides changed the same blocks. The space's version is in the file, yours in ${c.copyPath}. Settle it: spacesync conflicts resolve ${c.id} --dir ${shellQuote(root)} --keep mine|space|both (or in spacesync console).`,
  };
}

/**
 * A file the cycle held back until the person acts (`reason`: the problem's key). A file that would
 * wipe its document, and a refused cycle, name the whole `spacesync approve` line: the daemon that
 * told it goes ahead at its next cycle.
 */
export function heldBackNotice(root: string, h: Pick<HeldBackFile, 'path' | 'message'> & { reason: string }): Notice {
  const refused = h.reason.startsWith('refusal:');
  const approve = h.reason === `held:wipe:${h.path}` ? approveCommand(root, { files: [h.path] }) : refused ? approveCommand(root, { deletes: true }) : null;
  return {
    key: `held-back:${h.reason}:${h.path}`,
    title: refused ? 'spacesync: a cycle was refused' : `spacesync: ${h.path} is held back`,
    body: approve
      ? `${h.message} To go ahead: ${approve} (or Approve in spacesync console).`
      : `${h.message} (spacesync status --dir ${shellQuote(root)} lists what is held back.)`,
  };
}

/** The space out of reach for more than UNREACHABLE_NOTICE_MS, or undefined while it is not (yet). */
export function unreachableNotice(root: string, reach: Reachability, now: Date): Notice | undefined {
  if (reach.reachable !== false || reach.since === null || now.getTime() - Date.parse(reach.since) < UNREACHABLE_NOTICE_MS) return undefined;
  return {
    key: `unreachable:${reach.since}`,
    title: 'spacesync: the space does not answer',
    body: `Not since ${localTime(reach.since)}${reach.error ? ` (${reach.error.message})` : ''}. The daemon keeps trying; your edits wait here. Check the network; spacesync status --dir ${shellQuote(root)} shows the errors.`,
  };
}

/** A git push of the backup that failed; `since` is the first failure of this run of them (told once per run). */
export function gitPushNotice(root: string, failure: { since: string; message: string }): Notice {
  return {
    key: `git-push:${failure.since}`,
    title: 'spacesync: the git backup is not pushed',
    body: `${failure.message} The commits stay in ${root}; they are pushed with the next one that works. Check the remote: git -C ${shellQuote(root)} push`,
  };
}
