// What the daemon never syncs or watches: the built-ins (dot-files and dot-folders such as
// `.spacesync/`, editor swap/backup/temp files, OS litter, conflict copies) plus the user's globs.
import { SpacesyncError } from '../errors.js';
import { isConflictCopy } from './conflictCopyName.js';
import { isTempFileName } from './atomicWrites.js';

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

// Compiles one ignore glob to an anchored RegExp over a posix path: `*` and `?` stay inside one
// name, `**` spans folders, `[a-z]`/`[!a-z]` are classes, `\` escapes. Written here, not imported.
const SPECIAL = /[.+^${}()|[\]\\/*?]/g;
const escapeChar = (c: string) => c.replace(SPECIAL, '\\$&');

/** Reads a class starting at glob[i] === '['; returns its source and the index after `]`, or null if unclosed. */
function readClass(glob: string, i: number): { source: string; next: number } | null {
  let j = i + 1;
  let negate = false;
  if (glob[j] === '!' || glob[j] === '^') {
    negate = true;
    j++;
  }
  let body = '';
  let first = true;
  for (; j < glob.length; j++) {
    const c = glob[j]!;
    if (c === ']' && !first) {
      // A class never matches the separator, negated or not.
      return { source: negate ? `[^/${body}]` : `(?![/])[${body}]`, next: j + 1 };
    }
    first = false;
    if (c === '\\' && j + 1 < glob.length) {
      body += `\\${glob[++j]!}`;
    } else if (c === '-') {
      body += '-';
    } else {
      body += c === ']' || c === '\\' || c === '^' || c === '[' ? `\\${c}` : c;
    }
  }
  return null;
}

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const after = glob[i + 2];
        if (atStart && after === '/') {
          re += '(?:[^/]*/)*'; // `**/`: zero or more folders
          i += 2;
          continue;
        }
        if (atStart && after === undefined) {
          re += '.*'; // a trailing `**`: everything below
          i += 1;
          continue;
        }
        i += 1; // `**` inside a name acts as `*`
      }
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const cls = readClass(glob, i);
      if (cls) {
        re += cls.source;
        i = cls.next - 1;
      } else {
        re += '\\[';
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escapeChar(glob[++i]!);
    } else {
      re += escapeChar(c);
    }
  }
  return new RegExp(`^${re}$`, 's');
}
