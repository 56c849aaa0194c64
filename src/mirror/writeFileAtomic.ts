// Writes a mirror file so that at every instant it holds either its old or its new content:
// a temp file beside it (ignored by the watcher), fsync, rename over, fsync the folder.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { assertRoot } from './assertRoot.js';
import { hashText } from './hashText.js';
import { mirrorIoError } from './mirrorIoError.js';
import type { OwnWrites } from './OwnWrites.js';
import { resolveInRoot } from './resolveInRoot.js';
import { syncDir } from './syncDir.js';
import { tempFileName } from './tempFileName.js';

export interface WriteFileOptions {
  /** Told about the write before it lands, so the watcher drops its event. */
  ownWrites?: OwnWrites;
}

/** Writes `text` (UTF-8) to `relPath` under `root`, creating parent folders; returns the hash written. */
export async function writeFileAtomic(root: string, relPath: string, text: string, opts: WriteFileOptions = {}): Promise<{ hash: string }> {
  const abs = resolveInRoot(root, relPath);
  const dir = path.dirname(abs);
  const bytes = Buffer.from(text, 'utf8');
  const hash = hashText(bytes);
  const tmp = path.join(dir, tempFileName(path.basename(abs)));
  let wroteTemp = false;
  await assertRoot(root);
  try {
    await fsp.mkdir(dir, { recursive: true });
    // The new file keeps the old one's permissions (a user's 0600 note stays private).
    const mode = await fsp.stat(abs).then((s) => s.mode & 0o7777, () => undefined);
    const handle = await fsp.open(tmp, 'wx', mode ?? 0o666);
    wroteTemp = true;
    try {
      await handle.writeFile(bytes);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    opts.ownWrites?.note(relPath, hash);
    await fsp.rename(tmp, abs);
    wroteTemp = false;
    await syncDir(dir);
  } catch (e) {
    if (wroteTemp) await fsp.unlink(tmp).catch(() => undefined);
    throw mirrorIoError('write', relPath, root, e);
  }
  return { hash };
}
