// Directory operations the mirror layer has no call for: a folder renamed or moved in the space
// is one rename of its directory (user files inside travel with it), made durable with fsync.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { SpacesyncError } from '../../errors.js';
import { assertRoot, resolveForWrite, resolveInRoot } from '../../mirror/index.js';

async function fsyncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse to fsync a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}

export async function pathExists(root: string, relPath: string): Promise<boolean> {
  return fsp.lstat(resolveInRoot(root, relPath)).then(
    () => true,
    () => false,
  );
}

export async function isDirectory(root: string, relPath: string): Promise<boolean> {
  return fsp.lstat(resolveInRoot(root, relPath)).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Renames directory `from` to `to` (both relative to `root`; a file is renamed alike); the target must not exist. */
export async function moveDirectory(root: string, from: string, to: string): Promise<void> {
  const src = resolveForWrite(root, from);
  const dst = resolveForWrite(root, to);
  await assertRoot(root);
  try {
    await fsp.mkdir(path.dirname(dst), { recursive: true });
    await fsp.rename(src, dst);
    await fsyncDir(path.dirname(dst));
    if (path.dirname(dst) !== path.dirname(src)) await fsyncDir(path.dirname(src));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // The folder (or the one it goes into) was moved or removed here meanwhile: the tree is looked
    // at again by the next cycle, which finds it where it is now. Not a broken mirror.
    if (
      (code === 'ENOENT' || code === 'ENOTDIR') &&
      (await fsp.stat(root).then(
        (st) => st.isDirectory(),
        () => false,
      ))
    ) {
      throw new SpacesyncError(
        'mirror_changed',
        `The folder "${from}" was not moved to "${to}": it (or the folder it goes into) was moved or removed here meanwhile (${code}). Nothing is lost; the next cycle looks at it where it is now.`,
        { cause: e, details: { from, to } },
      );
    }
    throw new SpacesyncError(
      'mirror_io',
      `Cannot move the folder "${from}" to "${to}" in ${root}: ${(e as Error).message}. Check that nothing holds the folder open and that it is writable, then run again.`,
      { cause: e, details: { root, from, to } },
    );
  }
}

/** Creates directory `relPath` and its parents under an existing root. */
export async function ensureDirectory(root: string, relPath: string): Promise<boolean> {
  const abs = resolveForWrite(root, relPath);
  await assertRoot(root);
  try {
    const made = await fsp.mkdir(abs, { recursive: true });
    return made !== undefined;
  } catch (e) {
    throw new SpacesyncError(
      'mirror_io',
      `Cannot create the folder "${relPath}" in ${root}: ${(e as Error).message}. Check that the mirror folder is writable, then run again.`,
      { cause: e, details: { root, relPath } },
    );
  }
}
