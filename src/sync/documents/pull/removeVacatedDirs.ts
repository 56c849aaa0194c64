// After documents and folders moved away, the directories they left are removed when empty, up
// to the first directory that still stands for a location or folder. Only empty directories go.
import { promises as fsp } from 'node:fs';
import { dirOfPath } from '../../../core/files/fileName.js';
import { resolveForWrite } from '../../../mirror/index.js';

export async function removeVacatedDirs(root: string, vacated: Iterable<string>, live: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const order = [...new Set(vacated)].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  for (const start of order) {
    for (let dir = start; dir !== '' && !live.has(dir) && !dir.startsWith('.'); dir = dirOfPath(dir)) {
      try {
        await fsp.rmdir(resolveForWrite(root, dir));
        removed.push(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // gone already: look at its parent
        break; // not empty: the user's files stay, and so does every directory above
      }
    }
  }
  return removed;
}
