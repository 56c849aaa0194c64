// Deletes the daemon's own temp files a crash left behind (`.<name>.spacesync-<random>.tmp`).
// Call it at start, after taking the lock: no other daemon can be writing them then.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isTempFileName } from './tempFileName.js';

/** Returns the removed files (posix, relative to the root). Skips dot-folders such as .git. */
export async function removeTempFiles(root: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: nothing of ours can be removed there
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile() && isTempFileName(e.name)) {
        await fsp.unlink(path.join(dir, e.name)).catch(() => undefined);
        removed.push(childRel);
      } else if (e.isDirectory() && !e.name.startsWith('.')) {
        await walk(path.join(dir, e.name), childRel);
      }
    }
  };
  await walk(root, '');
  return removed.sort();
}
