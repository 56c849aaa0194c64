// The one check of the mirror root. It must already exist: creating it again (under an unmounted
// disk's mount point, or after a user moved the folder) would make every document look deleted
// locally. The sync refuses a missing root; the commands word their own advice from rootKind.
import { promises as fsp, statSync } from 'node:fs';
import { SpacesyncError } from '../errors.js';

function missing(root: string, cause?: unknown): SpacesyncError {
  return new SpacesyncError(
    'mirror_io',
    `The mirror folder ${root} does not exist (or is not a folder). If it was moved or its disk is not mounted, put it back; nothing was synced.`,
    {
      cause,
      details: { root, reason: 'root_missing' },
    },
  );
}

/** What stands at the root's path: a folder, something else, or nothing. */
export function rootKind(root: string): 'dir' | 'other' | 'missing' {
  const st = statSync(root, { throwIfNoEntry: false });
  return st === undefined ? 'missing' : st.isDirectory() ? 'dir' : 'other';
}

export async function assertRoot(root: string): Promise<void> {
  const st = await fsp.stat(root).catch((e: unknown) => {
    throw missing(root, e);
  });
  if (!st.isDirectory()) throw missing(root);
}

export function assertRootSync(root: string): void {
  if (rootKind(root) !== 'dir') throw missing(root);
}
