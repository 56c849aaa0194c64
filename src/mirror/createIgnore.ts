// What the daemon never syncs or watches: the built-ins (dot-files and dot-folders such as
// `.spacesync/`, editor swap/backup/temp files, OS litter, conflict copies) plus the user's globs.
import { SpacesyncError } from '../errors.js';
import { isConflictCopy } from './conflictCopyName.js';
import { globToRegExp } from './globToRegExp.js';
import { isTempFileName } from './tempFileName.js';

/** True when a posix path relative to the mirror root (a file, or a folder when `isDir`) is ignored. */
export type Ignore = (relPath: string, isDir?: boolean) => boolean;

const OS_LITTER = new Set(['Thumbs.db', 'ehthumbs.db', 'desktop.ini']);
const EDITOR_SUFFIXES = ['~', '.swp', '.swo', '.swx', '.swn', '.tmp', '.kate-swp', '.crswap', '___jb_tmp___', '___jb_old___'];

/** Vim's write test file: `4913`, then 4913 + 123·k while the name is taken. */
function isVimProbe(name: string): boolean {
  if (!/^\d+$/.test(name)) return false;
  const n = Number(name);
  return n >= 4913 && (n - 4913) % 123 === 0;
}

/** Whether one path segment (a file or folder name) is ignored by the built-in rules. */
export function isBuiltinIgnored(name: string): boolean {
  return (
    name.startsWith('.') || // dot-files, dot-folders: .spacesync/, .git/, .DS_Store, .#lock, .x.swp, our temp files
    (name.startsWith('#') && name.endsWith('#')) || // emacs auto-save
    EDITOR_SUFFIXES.some((s) => name.endsWith(s)) ||
    OS_LITTER.has(name) ||
    isVimProbe(name) ||
    isTempFileName(name) ||
    isConflictCopy(name) ||
    name.endsWith('.assets') // a document's assets folder (whiteboard scene files): never a folder of documents
  );
}

interface Rule {
  pattern: string;
  re: RegExp;
  /** Matched against the whole path (it contains a `/`) or against each name. */
  anchored: boolean;
  dirOnly: boolean;
}

function compile(pattern: string): Rule {
  const trimmed = pattern.trim();
  const fail = (why: string) =>
    new SpacesyncError('config_invalid', `The ignore pattern "${pattern}" ${why}. Fix it in the "ignore" list of .spacesync/config.json.`);
  if (trimmed === '') throw fail('is empty');
  if (trimmed.startsWith('!')) throw fail('starts with "!": re-including files is not supported; list only what to ignore');
  let body = trimmed;
  const dirOnly = body.endsWith('/');
  if (dirOnly) body = body.replace(/\/+$/, '');
  const anchored = body.includes('/');
  if (body.startsWith('/')) body = body.slice(1);
  if (body === '') throw fail('names no file or folder');
  try {
    return { pattern, re: globToRegExp(body), anchored, dirOnly };
  } catch (e) {
    throw fail(`is not a valid glob (${(e as Error).message})`);
  }
}

/**
 * User patterns follow .gitignore's shape: a pattern without `/` matches a file or folder name at
 * any depth (`*.pdf`, `drafts`); with a `/` it matches from the root (`Archive/2019/**`); a trailing
 * `/` matches folders only. Ignoring a folder ignores everything under it. Matching is case-sensitive.
 */
export function createIgnore(patterns: readonly string[] = []): Ignore {
  const rules = patterns.map(compile);
  return (relPath, isDir = false) => {
    const segments = relPath.split('/');
    for (let i = 0; i < segments.length; i++) {
      const name = segments[i]!;
      const segmentIsDir = isDir || i < segments.length - 1;
      if (isBuiltinIgnored(name)) return true;
      const prefix = segments.slice(0, i + 1).join('/');
      for (const rule of rules) {
        if (rule.dirOnly && !segmentIsDir) continue;
        if (rule.re.test(rule.anchored ? prefix : name)) return true;
      }
    }
    return false;
  };
}
