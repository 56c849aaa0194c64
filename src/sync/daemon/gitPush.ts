// Off-site backups (`"git": {"push": true}`): after each backup commit the branch is pushed to its
// upstream (or to `git.remote`), with the repository's own credentials and config; spacesync stores
// nothing. At most one push runs: a commit made meanwhile goes with the next. A failed push is tried
// again with a growing wait (30 s, doubling to 30 min), said once and kept for `status` (the last
// push, its result, the commits not pushed yet). It never holds up a cycle; a one-shot run waits for
// it before it exits, so a backup run from cron is off-site when the command returns.
import { execFile } from 'node:child_process';
import { SpacesyncError } from '../../errors.js';
import type { Journal } from '../../journal/index.js';
import type { Logger } from '../../log.js';

/** State key: the last push and what is left to push, for `spacesync status`. */
export const GIT_PUSH_STATE = 'status.gitPush';

export interface GitPushState {
  /** When the last push ended, and whether it went through. */
  at: string;
  ok: boolean;
  /** What git said when it failed (its first lines). */
  message?: string;
  /** Commits of the branch not on the remote after it (null when it cannot be told). */
  unpushed: number | null;
  /** When the next try is due, after a failure. */
  retryAt?: string;
}

export interface GitPusherOptions {
  root: string;
  remote?: string;
  journal: Journal;
  logger: Logger;
  now?: () => Date;
  /** Told once when pushes start failing and once when they go through again. */
  onChange?: (state: GitPushState, failedBefore: boolean) => void;
  env?: NodeJS.ProcessEnv;
  /** The first wait after a failure (ms); doubled each time, to 30 min at most. */
  retryMs?: number;
}

const MAX_RETRY_MS = 30 * 60_000;

function git(root: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd: root, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, timeout: 5 * 60_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
}

export class GitPusher {
  private running: Promise<void> | null = null;
  /** A commit came while a push ran: one more push after it. */
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private waitMs: number;
  private closed = false;
  private readonly now: () => Date;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly o: GitPusherOptions) {
    this.now = o.now ?? (() => new Date());
    this.env = o.env ?? process.env;
    this.waitMs = o.retryMs ?? 30_000;
  }

  /** A commit was made: push it (now, or after the push under way). */
  request(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && !this.closed) {
        this.again = false;
        this.request();
      }
    });
  }

  /** Resolves once no push runs or waits to run now (a retry after a failure is not waited for). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const failedBefore = this.o.journal.getState<GitPushState>(GIT_PUSH_STATE)?.ok === false;
    const { root, remote } = this.o;
    const branch = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'], this.env)).stdout.trim();
    const upstream = (await git(root, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{u}'], this.env)).stdout.trim();
    let r: { code: number; stdout: string; stderr: string };
    if (remote) r = await git(root, ['push', '--porcelain', remote, `HEAD:refs/heads/${branch}`], this.env);
    else if (upstream) r = await git(root, ['push', '--porcelain'], this.env);
    else
      r = {
        code: -1,
        stdout: '',
        stderr: `the branch ${branch} has no upstream: set one with \`git -C ${root} push -u <remote> ${branch}\`, or name the remote in "git": {"remote": …} of .spacesync/config.json`,
      };
    const target = remote ? `${remote}/${branch}` : upstream ? '@{u}' : null;
    const counted = target ? await git(root, ['rev-list', '--count', `${target}..HEAD`], this.env) : null;
    const unpushed = counted && counted.code === 0 ? Number(counted.stdout.trim()) : null;
    const at = this.now().toISOString();
    if (r.code === 0) {
      this.waitMs = this.o.retryMs ?? 30_000;
      const state: GitPushState = { at, ok: true, unpushed };
      this.o.journal.setState(GIT_PUSH_STATE, state);
      this.o.logger.info({ root, unpushed }, 'pushed the backup');
      this.o.onChange?.(state, failedBefore);
      return;
    }
    const said = (r.stderr || r.stdout).trim().split('\n').slice(0, 3).join(' / ') || `exit code ${r.code}`;
    const retryAt = new Date(this.now().getTime() + this.waitMs).toISOString();
    const state: GitPushState = { at, ok: false, message: said, unpushed, retryAt };
    this.o.journal.setState(GIT_PUSH_STATE, state);
    this.o.logger.warn({ root, code: r.code }, `git push of the backup failed: ${said}`);
    this.o.onChange?.(state, failedBefore);
    if (!this.closed) {
      this.timer = setTimeout(() => this.request(), this.waitMs);
      this.timer.unref();
    }
    this.waitMs = Math.min(MAX_RETRY_MS, this.waitMs * 2);
  }
}

/** The message of a failing push, for the terminal and the cycle's problems. */
export function pushProblem(root: string, s: GitPushState): SpacesyncError {
  return new SpacesyncError(
    'git_failed',
    `The git backup of ${root} could not be pushed (${s.message ?? 'git push failed'}); ${s.unpushed ?? 'its'} commit(s) wait on this machine. spacesync tries again${s.retryAt ? ` after ${s.retryAt}` : ''}; check the remote and its credentials with \`git -C ${root} push\`.`,
  );
}
