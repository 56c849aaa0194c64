// What a benchmark's mirror holds, counted as the sync sees it.
import fs from 'node:fs';
import path from 'node:path';
import { TASKS_DIR } from '../src/core/tasks/taskFiles.js';
import { STATE_DIR } from '../src/stateDir.js';

/**
 * The documents' files under the mirror `root`: every Markdown file but those in the state
 * directory and the task files (`Tasks/Inbox.md`, `Tasks/Logbook.md`), which are the task inbox's,
 * not documents.
 */
export function countDocumentFiles(root: string): number {
  const count = (dir: string, top: boolean): number => {
    let n = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== STATE_DIR && !(top && e.name === TASKS_DIR)) n += count(path.join(dir, e.name), false);
      else if (e.isFile() && e.name.endsWith('.md')) n++;
    }
    return n;
  };
  return count(root, true);
}
