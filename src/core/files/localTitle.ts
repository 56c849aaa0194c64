// The title a file gives its document: the front matter's `title` when the user edited it, else
// the file name when the file was renamed, else the title base recorded. Daily notes are named by
// date and their titles are the service's.
import { stemOfPath } from './fileName.js';
import type { ParsedFrontMatter } from './frontMatter.js';
import { BUILTIN_DIRS } from '../pull/layout.js';

export function localTitle(relPath: string, fm: ParsedFrontMatter, recorded?: { path: string; title: string }): string {
  const stem = stemOfPath(relPath);
  const fmTitle = fm.ok ? fm.title : undefined;
  if (relPath.startsWith(`${BUILTIN_DIRS.daily_notes}/`)) return recorded?.title ?? '';
  if (!recorded) return fmTitle ?? stem;
  if (fmTitle !== undefined && fmTitle !== recorded.title) return fmTitle;
  if (stem !== stemOfPath(recorded.path)) return stem;
  return recorded.title;
}
