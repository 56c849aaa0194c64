// Turns a mirror-relative posix path into an absolute one, refusing any path that could leave the
// root (absolute, `..`, empty segments): a path from the service must never write outside it.
import path from 'node:path';
import { SpacesyncError } from '../errors.js';

export function resolveInRoot(root: string, relPath: string): string {
  const segments = relPath.split('/');
  const bad =
    relPath === '' ||
    relPath.includes('\0') ||
    relPath.startsWith('/') ||
    path.isAbsolute(relPath) ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) {
    throw new SpacesyncError(
      'mirror_io',
      `Refused the path "${relPath}": mirror paths are relative, use "/" between names and never "." or "..". This is a defect in spacesync; please report it.`,
      { details: { root, relPath } },
    );
  }
  return path.join(root, ...segments);
}

/** The posix path of `abs` relative to `root`, or null when it is the root itself or outside it. */
export function relativeToRoot(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
