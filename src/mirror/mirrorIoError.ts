// The one shape of an I/O failure in the mirror: what failed, on which file, and what to do.
import { SpacesyncError } from '../errors.js';

export function mirrorIoError(action: string, relPath: string, root: string, cause: unknown): SpacesyncError {
  const code = (cause as NodeJS.ErrnoException).code;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'The disk is full: free some space, and spacesync goes on at its next cycle (or when run again); nothing was lost.'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `Check that you can write to ${root}.`
        : 'Check the folder and its permissions; spacesync retries on its next cycle.';
  return new SpacesyncError('mirror_io', `Could not ${action} "${relPath}" in ${root}: ${(cause as Error).message}. ${hint}`, {
    cause,
    details: { root, relPath, errno: code },
  });
}
