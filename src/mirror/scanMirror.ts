// Lists the mirror as the daemon sees it: every document file (`*.md`) and folder, skipping what
// the ignore rules name, and the other files it leaves alone (so `status` can say so).
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { assertRoot } from './assertRoot.js';
import type { Ignore } from './createIgnore.js';
import { mirrorIoError } from './readMirrorFile.js';

export interface MirrorFile {
  /** Posix path relative to the root, as the file system spells it. */
  relPath: string;
  size: number;
  mtimeMs: number;
  /** The stat cache's key (nanoseconds, as the file system gives them). */
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

export interface MirrorScan {
  /** Document files (`*.md`), by path. */
  files: MirrorFile[];
  /** Folders (not ignored), by path; a parent before its children. */
  dirs: string[];
  /** Files neither ignored nor documents (other extensions): never synced. */
  skipped: string[];
  /**
   * Symbolic links (to a file or a folder), not followed: never synced, never written through. A
   * document's file or a folder that became one is held back by the sync, not taken as deleted.
   */
  links: string[];
}

export const isDocumentFile = (relPath: string): boolean => relPath.endsWith('.md');

/**
 * Throws `mirror_io` when the root is missing or a folder cannot be read: a folder that silently
 * vanished from the scan would look like its documents were deleted. The walk and the stats are
 * synchronous: one call per folder and per file, none of the per-call cost of a promise (at
 * 10,000 files the awaits cost more than the stats).
 */
export async function scanMirror(root: string, ignore: Ignore): Promise<MirrorScan> {
  const scan: MirrorScan = { files: [], dirs: [], skipped: [], links: [] };
  await assertRoot(root);
  const walk = (rel: string): void => {
    const abs = rel ? path.join(root, ...rel.split('/')) : root;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && rel) return; // removed while scanning
      throw mirrorIoError('list the folder', rel || '.', root, e);
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) {
        if (!ignore(childRel, false)) scan.links.push(childRel);
      } else if (e.isDirectory()) {
        if (ignore(childRel, true)) continue;
        scan.dirs.push(childRel);
        walk(childRel);
      } else if (ignore(childRel, false)) {
        continue;
      } else if (e.isFile() && isDocumentFile(childRel)) {
        let st;
        try {
          st = statSync(`${abs}${path.sep}${e.name}`, { bigint: true, throwIfNoEntry: false });
        } catch {
          st = undefined; // unreadable between the listing and the stat: as if removed meanwhile
        }
        if (st)
          scan.files.push({ relPath: childRel, size: Number(st.size), mtimeMs: Number(st.mtimeMs), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino });
      } else {
        scan.skipped.push(childRel);
      }
    }
  };
  walk('');
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  scan.files.sort((a, b) => byPath(a.relPath, b.relPath));
  scan.dirs.sort(byPath);
  scan.skipped.sort(byPath);
  scan.links.sort(byPath);
  return scan;
}
