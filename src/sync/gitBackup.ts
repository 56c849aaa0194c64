// Git backups of the mirror (`"git": {"autoCommit": true}`): after a cycle that changed files, one
// commit whose message lists the documents changed. `.spacesync/` and conflict copies are never
// committed. It never throws into the daemon: a missing or failing git is logged once and returned.
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpacesyncError } from '../errors.js';
import type { Logger } from '../log.js';
import { isConflictCopy, isTempFileName } from '../mirror/index.js';

export interface ChangedDocument {
  /** Posix path relative to the mirror root. */
  path: string;
  title: string;
}

export interface CommitMirrorOptions {
  root: string;
  changedDocuments: readonly ChangedDocument[];
  now: () => Date;
  logger: Logger;
  /** The environment git runs in. Default: this process's. */
  env?: NodeJS.ProcessEnv;
}

export type CommitOutcome =
  | { kind: 'committed'; commit: string; subject: string; message: string }
  | { kind: 'nothing' }
  | { kind: 'failed'; error: SpacesyncError };

/** What the mirror's .gitignore must hold: spacesync's own state, conflict copies, its temp files. */
export const GITIGNORE_LINES = [
  '.spacesync/',
  '* (conflict [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9][0-9][0-9][0-9][0-9]*).md',
  '.*.spacesync-*.tmp',
] as const;

/** Checked again after staging: a user's .gitignore may re-include them, or an old commit may track them. */
export function neverCommitted(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return relPath === '.spacesync' || relPath.startsWith('.spacesync/') || isConflictCopy(name) || isTempFileName(name);
}

const MAX_LISTED = 50;

/** The last failure told per root, so a daemon polling every minute says it once, not every cycle. */
const told = new Map<string, string>();

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

class GitMissing extends Error {}

function git(root: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], {
      cwd: root, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8',
    }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissing());
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function failed(step: string, root: string, r: GitResult): SpacesyncError {
  const said = r.stderr.trim().split('\n').slice(0, 3).join(' / ') || `exit code ${r.code}`;
  return new SpacesyncError('git_failed', `git ${step} failed in ${root} (${said}), so this cycle's changes were not committed. Run \`git status\` in that folder to see what is wrong; spacesync keeps syncing and commits them after the next cycle that changes files.`, { details: { step, code: r.code } });
}

async function must(root: string, step: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<GitResult> {
  const r = await git(root, args, env);
  if (r.code !== 0) throw failed(step, root, r);
  return r;
}

/** Adds the lines that are missing to the mirror's .gitignore, keeping the user's own lines. */
async function ensureGitignore(root: string): Promise<void> {
  const file = path.join(root, '.gitignore');
  let text = '';
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE_LINES.filter((l) => !have.has(l));
  if (missing.length === 0) return;
  const head = text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`;
  await fsp.writeFile(file, `${head}# spacesync: its own state, conflict copies and temp files are never committed\n${missing.join('\n')}\n`);
}

const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** Subject: the first titles; body: every path (with its title when the file name does not say it). */
export function commitMessage(changed: readonly ChangedDocument[]): { subject: string; body: string } {
  const docs = [...new Map(changed.map((d) => [d.path, d])).values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (docs.length === 0) return { subject: 'spacesync: sync of the mirror', body: '' };
  const names = docs.map((d) => oneLine(d.title) || path.posix.basename(d.path, '.md'));
  let subject = `spacesync: ${names.slice(0, 3).join(', ')}${docs.length > 3 ? ` and ${docs.length - 3} more` : ''}`;
  if (subject.length > 72) subject = `spacesync: ${docs.length} document${docs.length === 1 ? '' : 's'} changed`;
  const lines = docs.slice(0, MAX_LISTED).map((d, i) => {
    const stem = path.posix.basename(d.path, '.md');
    return `- ${d.path}${names[i] !== stem ? ` (${names[i]})` : ''}`;
  });
  if (docs.length > MAX_LISTED) lines.push(`- … and ${docs.length - MAX_LISTED} more`);
  return { subject, body: `${docs.length === 1 ? 'Document' : 'Documents'} changed:\n${lines.join('\n')}` };
}

async function commit(o: CommitMirrorOptions, env: NodeJS.ProcessEnv): Promise<CommitOutcome> {
  const { root } = o;
  // The mirror is its own repository, made here when needed: a mirror inside another repository
  // (a home folder kept in git) must not end up in that one's history.
  const hasRepo = await fsp.stat(path.join(root, '.git')).then(() => true, () => false);
  if (!hasRepo) {
    await must(root, 'init', ['init', '-q'], env);
    o.logger.info({ root }, 'made the mirror a git repository for its backups');
  }
  await ensureGitignore(root);
  await must(root, 'add', ['add', '-A', '--', '.'], env);
  const indexed = await must(root, 'ls-files', ['ls-files', '-z'], env);
  const forbidden = indexed.stdout.split('\0').filter((p) => p !== '' && neverCommitted(p));
  if (forbidden.length > 0) await must(root, 'rm', ['rm', '--cached', '-q', '--ignore-unmatch', '--', ...forbidden], env);
  const staged = await git(root, ['diff', '--cached', '--quiet'], env);
  if (staged.code === 0) return { kind: 'nothing' };
  if (staged.code !== 1) throw failed('diff', root, staged);

  // A machine with no git identity still gets its backups, under spacesync's name.
  const identity: string[] = [];
  if ((await git(root, ['config', '--get', 'user.name'], env)).code !== 0) identity.push('-c', 'user.name=spacesync');
  if ((await git(root, ['config', '--get', 'user.email'], env)).code !== 0) identity.push('-c', `user.email=spacesync@${os.hostname() || 'localhost'}`);
  const { subject, body } = commitMessage(o.changedDocuments);
  const stamp = `${Math.floor(o.now().getTime() / 1000)} +0000`;
  const dated = { ...env, GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp };
  // --no-verify: hooks written for people's commits must not stop an unattended backup.
  await must(root, 'commit', [...identity, 'commit', '-q', '--no-verify', '-m', subject, ...(body ? ['-m', body] : [])], dated);
  const head = await must(root, 'rev-parse', ['rev-parse', 'HEAD'], env);
  return { kind: 'committed', commit: head.stdout.trim(), subject, message: body ? `${subject}\n\n${body}` : subject };
}

/**
 * Commits the mirror after a cycle: initialises the repository and its .gitignore when needed,
 * stages everything but spacesync's state and conflict copies, and makes one commit; nothing when
 * nothing changed. Failures are returned (and logged once per root until a commit succeeds).
 */
export async function commitMirror(o: CommitMirrorOptions): Promise<CommitOutcome> {
  const root = path.resolve(o.root);
  const env = o.env ?? process.env;
  let outcome: CommitOutcome;
  try {
    outcome = await commit({ ...o, root }, env);
  } catch (e) {
    const error = e instanceof GitMissing
      ? new SpacesyncError('git_missing', `git was not found on the PATH, so the mirror ${root} cannot be committed after a sync ("git": {"autoCommit": true} in its .spacesync/config.json). Install git, or set "autoCommit" to false; syncing goes on without the backups meanwhile.`)
      : e instanceof SpacesyncError ? e
        : new SpacesyncError('git_failed', `Preparing the git backup of ${root} failed (${(e as Error).message}). Check that the folder is writable; syncing goes on, and the next cycle that changes files tries again.`, { cause: e });
    if (told.get(root) !== error.message) {
      told.set(root, error.message);
      o.logger.error({ err: error, code: error.code }, error.message);
    }
    return { kind: 'failed', error };
  }
  told.delete(root);
  if (outcome.kind === 'committed') o.logger.info({ commit: outcome.commit, documents: o.changedDocuments.length }, `committed the mirror: ${outcome.subject}`);
  return outcome;
}
