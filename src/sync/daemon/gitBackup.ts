// Git backups of the mirror (`"git": {"autoCommit": true}`): after a cycle that changed files, one
// commit whose message lists the documents changed. Everything else in the folder is committed with
// them, the assets beside the documents (`Doc.assets/`) included, so a backup shows its images
// without the space. `.spacesync/` and conflict copies are never committed. It never throws into the daemon: a missing or failing git is logged once and returned.
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpacesyncError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { CONFLICT_COPY_GLOB, isConflictCopy, isTempFileName } from '../../mirror/index.js';
import { isStatePath, STATE_DIR } from '../../stateDir.js';

import type { Change } from '../../core/report/cycleReport.js';

/** One path as git staged it: added, modified, deleted, or renamed from `from`. */
export interface StagedFile {
  status: 'A' | 'M' | 'D' | 'R';
  path: string;
  from?: string;
}

export interface CommitMirrorOptions {
  root: string;
  /** The cycle's report of what changed: titles and sides of the files git staged. */
  changes: readonly Change[];
  now: () => Date;
  logger: Logger;
  /** The environment git runs in. Default: this process's. */
  env?: NodeJS.ProcessEnv;
}

export type CommitOutcome =
  { kind: 'committed'; commit: string; subject: string; message: string } | { kind: 'nothing' } | { kind: 'failed'; error: SpacesyncError };

/** What the mirror's .gitignore must hold: spacesync's own state, conflict copies, its temp files. */
export const GITIGNORE_LINES = [`${STATE_DIR}/`, CONFLICT_COPY_GLOB, '.*.spacesync-*.tmp'] as const;

/** Checked again after staging: a user's .gitignore may re-include them, or an old commit may track them. */
export function neverCommitted(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return isStatePath(relPath) || isConflictCopy(name) || isTempFileName(name);
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
    execFile(
      'git',
      [...args],
      {
        cwd: root,
        env: { ...env, GIT_TERMINAL_PROMPT: '0' },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new GitMissing());
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function failed(step: string, root: string, r: GitResult): SpacesyncError {
  const said = r.stderr.trim().split('\n').slice(0, 3).join(' / ') || `exit code ${r.code}`;
  return new SpacesyncError(
    'git_failed',
    `git ${step} failed in ${root} (${said}), so this cycle's changes were not committed. Run \`git status\` in that folder to see what is wrong; spacesync keeps syncing and commits them after the next cycle that changes files.`,
    { details: { step, code: r.code } },
  );
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

const SIDES = [
  {
    side: 'local',
    heading: 'Changed here, sent to the space:',
    tag: 'changed here',
    words: { A: 'new', M: 'edited', D: 'deleted', R: 'renamed or moved from' },
  },
  { side: 'remote', heading: 'Changed in the space, pulled:', tag: 'from the space', words: { A: 'new', M: 'updated', D: 'removed', R: 'moved from' } },
  { side: undefined, heading: 'Also changed in the folder:', tag: 'in the folder', words: { A: 'new', M: 'edited', D: 'deleted', R: 'moved from' } },
] as const;

/** `Projects/Roadmap.md` for `Projects/Roadmap.assets/x.png`: the document whose assets folder holds the file; null outside one. */
function ownerDocument(relPath: string): string | null {
  const m = /^(.*?)\.assets\/[^/]+$/.exec(relPath);
  return m ? `${m[1]}.md` : null;
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const plural = (n: number) => `${n} document${n === 1 ? '' : 's'}`;

/**
 * The commit's message from what git staged (so it names every file the commit holds), with each
 * file's title and side from the cycle's report: the subject names up to three documents per side (a
 * count when they do not fit), the body lists every path with what happened to it, changes made
 * here apart from changes pulled from the space. A file both sides changed (an inbox with a task
 * added here and one in the space) is listed under both. The first commit of a mirror says it is
 * the first backup and how many documents it adds. Without `staged`, the report's files are taken as edits.
 */
export function commitMessage(changes: readonly Change[], staged?: readonly StagedFile[], opts: { first?: boolean } = {}): { subject: string; body: string } {
  const sidesOf = new Map<string, { title: string; sides: Set<Change['side']> }>();
  for (const c of changes) {
    const at = sidesOf.get(c.path) ?? { title: c.kind === 'document' || c.kind === 'folder' ? c.title : '', sides: new Set() };
    at.sides.add(c.side);
    sidesOf.set(c.path, at);
    if (c.from && c.action === 'moved') sidesOf.set(c.from, at);
  }
  const files: Array<StagedFile & { title: string; side: Change['side'] | undefined }> = (
    staged ?? [...sidesOf.keys()].map((p): StagedFile => ({ status: 'M', path: p }))
  )
    .filter((f) => f.path !== '.gitignore')
    .flatMap((f) => {
      const doc = sidesOf.get(f.path) ?? (f.from !== undefined ? sidesOf.get(f.from) : undefined);
      const stem = path.posix.basename(f.path).replace(/\.md$/, '');
      // An asset (`Doc.assets/x.png`) changed with its document, on the same side.
      const owner = doc ?? sidesOf.get(ownerDocument(f.path) ?? '');
      const title = oneLine(doc?.title ?? '') || stem;
      const sides = [...(owner?.sides ?? [undefined])];
      return sides.map((side) => ({ ...f, title, side }));
    });
  const docs = [...new Map(files.map((f) => [`${f.side}\u0000${f.path}`, f])).values()].sort(byPath);
  if (docs.length === 0) return { subject: 'spacesync: sync of the mirror', body: '' };
  const line = (d: (typeof docs)[number], words: Record<StagedFile['status'], string>) => {
    const stem = path.posix.basename(d.path).replace(/\.md$/, '');
    const what = d.status === 'R' ? `${words.R} ${d.from}` : words[d.status];
    return `- ${d.path}${d.title !== stem ? ` (${d.title})` : ''}: ${what}`;
  };
  const listed = (items: typeof docs, words: Record<StagedFile['status'], string>) => {
    const lines = items.slice(0, MAX_LISTED).map((d) => line(d, words));
    if (items.length > MAX_LISTED) lines.push(`- … and ${items.length - MAX_LISTED} more`);
    return lines;
  };
  if (opts.first) {
    const documents = docs.filter((d) => d.path.endsWith('.md')).length;
    const others = docs.length - documents;
    const more = others === 0 ? '' : ` and ${others} other file${others === 1 ? '' : 's'}`;
    return { subject: `spacesync: first backup of the mirror, ${plural(documents)}${more}`, body: ['Added:', ...listed(docs, SIDES[2].words)].join('\n') };
  }
  const groups = SIDES.map((s) => ({ ...s, items: docs.filter((d) => d.side === s.side) })).filter((g) => g.items.length > 0);
  // Documents are named before other files (their assets): those count in "and N more".
  const names = (items: typeof docs) =>
    `${[...items.filter((d) => d.path.endsWith('.md')), ...items.filter((d) => !d.path.endsWith('.md'))]
      .slice(0, 3)
      .map((d) => d.title)
      .join(', ')}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
  let subject = `spacesync: ${groups.map((g) => `${names(g.items)} (${g.tag})`).join('; ')}`;
  if (subject.length > 72) subject = `spacesync: ${groups.map((g) => `${plural(g.items.length)} ${g.tag}`).join(', ')}`;
  const body = groups.map((g) => [g.heading, ...listed(g.items, g.words)].join('\n')).join('\n\n');
  return { subject, body };
}

/** What the index holds against HEAD (or against nothing, before the first commit), renames found. */
async function stagedFiles(root: string, env: NodeJS.ProcessEnv): Promise<StagedFile[]> {
  const r = await must(root, 'diff', ['-c', 'core.quotePath=false', 'diff', '--cached', '--name-status', '-M', '-z'], env);
  const parts = r.stdout.split('\0');
  const out: StagedFile[] = [];
  for (let i = 0; i + 1 < parts.length;) {
    const code = parts[i++]!;
    if (code === '') continue;
    if (code.startsWith('R') || code.startsWith('C')) {
      const from = parts[i++]!;
      const to = parts[i++]!;
      out.push(code.startsWith('R') ? { status: 'R', path: to, from } : { status: 'A', path: to });
    } else {
      const p = parts[i++]!;
      out.push({ status: code === 'A' ? 'A' : code === 'D' ? 'D' : 'M', path: p });
    }
  }
  return out;
}

async function commit(o: CommitMirrorOptions, env: NodeJS.ProcessEnv): Promise<CommitOutcome> {
  const { root } = o;
  // The mirror is its own repository, made here when needed: a mirror inside another repository
  // (a home folder kept in git) must not end up in that one's history.
  const hasRepo = await fsp.stat(path.join(root, '.git')).then(
    () => true,
    () => false,
  );
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
  const first = (await git(root, ['rev-parse', '--verify', '-q', 'HEAD'], env)).code !== 0;
  const { subject, body } = commitMessage(o.changes, await stagedFiles(root, env), { first });
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
    const error =
      e instanceof GitMissing
        ? new SpacesyncError(
            'git_missing',
            `git was not found on the PATH, so the mirror ${root} cannot be committed after a sync ("git": {"autoCommit": true} in its .spacesync/config.json). Install git, or set "autoCommit" to false; syncing goes on without the backups meanwhile.`,
          )
        : e instanceof SpacesyncError
          ? e
          : new SpacesyncError(
              'git_failed',
              `Preparing the git backup of ${root} failed (${(e as Error).message}). Check that the folder is writable; syncing goes on, and the next cycle that changes files tries again.`,
              { cause: e },
            );
    if (told.get(root) !== error.message) {
      told.set(root, error.message);
      o.logger.error({ err: error, code: error.code }, error.message);
    }
    return { kind: 'failed', error };
  }
  told.delete(root);
  if (outcome.kind === 'committed') o.logger.info({ commit: outcome.commit, changes: o.changes.length }, `committed the mirror: ${outcome.subject}`);
  return outcome;
}
