// Turns a mirror-relative posix path into an absolute one, refusing any path that could leave the
// root (absolute, `..`, empty segments): a path from the service must never write outside it.
import { lstatSync, readlinkSync } from 'node:fs';
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

/**
 * The first entry on the way to `relPath` (its folders, and the entry itself with `last`) that is a
 * symbolic link, as a mirror path; null when there is none. Entries that do not exist end the look.
 */
export function linkOnTheWay(root: string, relPath: string, last = true): string | null {
  const segments = relPath.split('/');
  let at = root;
  for (let i = 0; i < (last ? segments.length : segments.length - 1); i++) {
    at = path.join(at, segments[i]!);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (!st) return null;
    if (st.isSymbolicLink()) return segments.slice(0, i + 1).join('/');
  }
  return null;
}

/** The symbolic links the folders `relPaths` are (or are inside of), each once. */
export function linksHolding(root: string, relPaths: Iterable<string>): string[] {
  const links = new Set<string>();
  for (const p of relPaths) {
    const link = linkOnTheWay(root, p);
    if (link !== null) links.add(link);
  }
  return [...links];
}

/**
 * resolveInRoot for a write, a rename or a removal: refused (`mirror_symlink`) when a folder on the
 * way, or the entry itself, is a symbolic link. Whoever can edit the space picks names and content;
 * a link in the mirror must never let the sync write outside it (or at another place inside it).
 */
export function resolveForWrite(root: string, relPath: string): string {
  const abs = resolveInRoot(root, relPath);
  const link = linkOnTheWay(root, relPath);
  if (link !== null) throw symlinkError(root, relPath, link);
  return abs;
}

export function symlinkError(root: string, relPath: string, link: string): SpacesyncError {
  let target = '';
  try {
    target = ` (to ${readlinkSync(path.join(root, ...link.split('/')))})`;
  } catch {
    /* gone meanwhile: named without its target */
  }
  const what = link === relPath ? `"${relPath}" is a symbolic link${target}` : `"${link}" is a symbolic link${target}`;
  return new SpacesyncError(
    'mirror_symlink',
    `${what}: spacesync never writes, moves or removes anything through a link, so "${relPath}" was left as it is (what it syncs there waits). Replace the link with a real folder or file to sync it, or add it to "ignore" in the config.`,
    { details: { root, relPath, link } },
  );
}
