// The one naming rule for conflict copies: `<name> (conflict YYYY-MM-DD HHMMSS).md` beside the
// document's file, in local time (the user reads it); never synced, never watched.
import { lstatSync } from 'node:fs';
import path from 'node:path';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * `Roadmap.md` at 2026-11-21 09:30:05 → `Roadmap (conflict 2026-11-21 093005).md`. `n` (2, 3, …)
 * tells apart two copies of one file made in the same second: `… 093005 2).md`.
 */
export function conflictCopyName(fileName: string, date: Date, n?: number): string {
  const ext = path.posix.extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  return `${stem} (conflict ${day} ${time}${n !== undefined && n > 1 ? ` ${n}` : ''})${ext}`;
}

const CONFLICT_RE = /^.+ \(conflict \d{4}-\d{2}-\d{2} \d{6}(?: [1-9]\d*)?\)(?:\.[^./]*)?$/s;

/** Whether a file name (or the last segment of a path) is a conflict copy. */
export function isConflictCopy(nameOrPath: string): boolean {
  const name = nameOrPath.slice(nameOrPath.lastIndexOf('/') + 1);
  return CONFLICT_RE.test(name);
}

/** The glob of a conflict copy's name, for a `.gitignore`: the rule above in git's words. */
export const CONFLICT_COPY_GLOB = '* (conflict [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9][0-9][0-9][0-9][0-9]*)*';

/** A free path for a conflict copy of `relPath` (posix, under `root`), named for `date`. */
export function freeConflictCopyPath(root: string, relPath: string, date: Date): string {
  const dir = path.posix.dirname(relPath);
  for (let n = 1; ; n++) {
    const name = conflictCopyName(path.posix.basename(relPath), date, n);
    const copy = dir === '.' ? name : `${dir}/${name}`;
    if (lstatSync(path.join(root, ...copy.split('/')), { throwIfNoEntry: false }) === undefined) return copy;
  }
}
