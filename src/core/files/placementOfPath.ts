// Where a file's place in the mirror puts its document in the space: a built-in location, a daily
// note (named by its date), a user folder (or one being created), or nowhere the API can put it.
import { dirOfPath, stemOfPath } from './fileName.js';
import type { ParsedFrontMatter } from './frontMatter.js';
import { BUILTIN_DIRS, locationOfDir } from '../pull/layout.js';
import type { Placement } from '../remoteTypes.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type PathPlacement = { ok: true; placement: Placement } | { ok: false; problem: string };

/**
 * `folderPaths`: folder id (or ref of a folder being created) → its directory. A file at the top of
 * the mirror goes to Unsorted, as a new document does in the app.
 */
export function placementOfPath(relPath: string, folderPaths: ReadonlyMap<string, string>): PathPlacement {
  const dir = dirOfPath(relPath);
  if (dir === '') return { ok: true, placement: { location: 'unsorted', folderId: null, dailyNoteDate: null } };
  const at = locationOfDir(dir, folderPaths);
  if (at?.location === 'daily_notes') {
    const date = stemOfPath(relPath);
    if (!DATE.test(date)) {
      return {
        ok: false,
        problem: `"${relPath}" is in ${BUILTIN_DIRS.daily_notes}/ but is not named by a date (YYYY-MM-DD.md), so it is not sent. Rename it to the day it belongs to, or move it to another folder.`,
      };
    }
    return { ok: true, placement: { location: 'daily_notes', folderId: null, dailyNoteDate: date } };
  }
  if (at?.location === 'folder') return { ok: true, placement: { location: 'folder', folderId: at.folderId!, dailyNoteDate: null } };
  if (at) return { ok: true, placement: { location: at.location, folderId: null, dailyNoteDate: null } };
  const top = dir.split('/')[0]!;
  const builtin = locationOfDir(top, new Map());
  if (builtin) {
    return {
      ok: false,
      problem: `"${relPath}" is in a folder inside ${top}/, and the space has no folders there, so it is not sent. Move it into ${top}/ itself or into one of your own folders.`,
    };
  }
  return { ok: false, problem: `"${relPath}" is in "${dir}", which is not a folder of the space yet, so it is not sent.` };
}

// The title a file gives its document: the front matter's `title` when the user edited it, else
// the file name when the file was renamed, else the title base recorded. Daily notes are named by
// date and their titles are the service's.

export function localTitle(relPath: string, fm: ParsedFrontMatter, recorded?: { path: string; title: string }): string {
  const stem = stemOfPath(relPath);
  const fmTitle = fm.ok ? fm.title : undefined;
  if (relPath.startsWith(`${BUILTIN_DIRS.daily_notes}/`)) return recorded?.title ?? '';
  if (!recorded) return fmTitle ?? stem;
  if (fmTitle !== undefined && fmTitle !== recorded.title) return fmTitle;
  if (stem !== stemOfPath(recorded.path)) return stem;
  return recorded.title;
}
