// The mirror root must already exist: creating it again (under an unmounted disk's mount point,
// or after a user moved the folder) would make every document look deleted locally.
import { promises as fsp, statSync } from 'node:fs';
import { SpacesyncError } from '../errors.js';

function missing(root: string, cause?: unknown): SpacesyncError {
  return new SpacesyncError('mirror_io', `The mirror folder ${root} does not exist (or is not a folder). If it was moved or its disk is not mounted, put it back; nothing was synced.`, {
    cause, details: { root, reason: 'root_missing' },
  });
}

export async function assertRoot(root: string): Promise<void> {
  const st = await fsp.stat(root).catch((e: unknown) => {
    throw missing(root, e);
  });
  if (!st.isDirectory()) throw missing(root);
}

export function assertRootSync(root: string): void {
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st?.isDirectory()) throw missing(root);
}
