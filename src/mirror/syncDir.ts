// fsync of a directory, so a rename in it survives a power cut. Some platforms (Windows) cannot
// open a directory for this; there the rename's own durability is all there is.
import { promises as fsp } from 'node:fs';

export async function syncDir(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, 'r');
    await handle.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    await handle?.close();
  }
}
