// Removes a folder left empty (after its last file moved or was deleted) and each parent that
// becomes empty in turn, up to but never including the mirror root.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { mirrorIoError } from './readMirrorFile.js';
import { linkOnTheWay, resolveInRoot } from './resolveInRoot.js';
import { STATE_DIR } from '../stateDir.js';

/** Files an OS drops into folders by itself; a folder holding only these counts as empty. */
const LITTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/**
 * Returns the folders removed (posix, relative to the root), deepest first. `mayRemove`: the folders
 * this caller may remove at all; the walk stops at the first it may not (a step that moved an asset
 * out of a document's `.assets` folder removes that folder, never the space folder's directory
 * above it, which would read as the folder deleted here).
 */
export async function removeEmptyDirs(root: string, relDir: string, mayRemove: (relDir: string) => boolean = () => true): Promise<string[]> {
  const removed: string[] = [];
  let segments = relDir.split('/');
  resolveInRoot(root, relDir);
  if (segments[0] === STATE_DIR) return removed;
  // A link on the way: what is behind it is not the mirror's to remove (nor a link itself).
  if (linkOnTheWay(root, relDir) !== null) return removed;
  for (; segments.length > 0; segments = segments.slice(0, -1)) {
    const rel = segments.join('/');
    if (!mayRemove(rel)) break;
    const abs = path.join(root, ...segments);
    let entries: string[];
    try {
      entries = await fsp.readdir(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // already gone: its parent may still be empty
      if (code === 'ENOTDIR') break;
      throw mirrorIoError('list the folder', rel, root, e);
    }
    if (!entries.every((n) => LITTER.has(n))) break;
    try {
      for (const n of entries) await fsp.unlink(path.join(abs, n));
      await fsp.rmdir(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') break; // something arrived meanwhile
      throw mirrorIoError('remove the empty folder', rel, root, e);
    }
    removed.push(rel);
  }
  return removed;
}
