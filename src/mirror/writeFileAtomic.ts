// Writes a mirror file so that at every instant it holds either its old or its new content:
// a temp file beside it (ignored by the watcher), fsync, rename over, fsync the folder.
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isSpacesyncError } from '../errors.js';
import { assertRoot } from './assertRoot.js';
import { hashText } from './hashText.js';
import { mirrorIoError } from './mirrorIoError.js';
import type { OwnWrites } from './OwnWrites.js';
import { resolveForWrite, resolveInRoot } from './resolveInRoot.js';
import { syncDir } from './syncDir.js';
import { tempFileName } from './tempFileName.js';

export interface WriteFileOptions {
  /** Told about the write before it lands, so the watcher drops its event. */
  ownWrites?: OwnWrites;
}

/**
 * Writes `text` over the file only if it still holds the bytes with hash `expected` (null: only if
 * there is no file), checked again right before the rename: an editor's save that lands while the
 * new text is written out and synced is not overwritten. The check and the rename run back to back
 * without yielding to the event loop, so the window in which a save can still be lost is the time
 * of one read of a small file, not that of the fsync and whatever else the process does meanwhile.
 * `written: false` names what is there now.
 */
export async function writeFileIfUnchanged(
  root: string,
  relPath: string,
  text: string,
  expected: string | null,
  opts: WriteFileOptions = {},
): Promise<{ written: true; hash: string } | { written: false; now: string | null }> {
  let now: string | null = null;
  const hash = await writeAtomic(root, relPath, text, opts, () => {
    now = currentHashSync(resolveInRoot(root, relPath));
    return now === expected;
  });
  return hash === null ? { written: false, now } : { written: true, hash };
}

function currentHashSync(abs: string): string | null {
  try {
    return hashText(fs.readFileSync(abs));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

/** Writes `text` (UTF-8, or bytes as they are) to `relPath` under `root`, creating parent folders; returns the hash written. */
export async function writeFileAtomic(root: string, relPath: string, text: string | Uint8Array, opts: WriteFileOptions = {}): Promise<{ hash: string }> {
  return { hash: (await writeAtomic(root, relPath, text, opts))! };
}

/** The write; null when `beforeRename` said no (the temp file is removed, the file left as it is). */
async function writeAtomic(
  root: string,
  relPath: string,
  text: string | Uint8Array,
  opts: WriteFileOptions,
  beforeRename?: () => boolean,
): Promise<string | null> {
  const abs = resolveForWrite(root, relPath);
  const dir = path.dirname(abs);
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
  const hash = hashText(bytes);
  const tmp = path.join(dir, tempFileName(path.basename(abs)));
  let wroteTemp = false;
  await assertRoot(root);
  try {
    await fsp.mkdir(dir, { recursive: true });
    // The new file keeps the old one's permissions (a user's 0600 note stays private).
    const mode = await fsp.stat(abs).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    );
    const handle = await fsp.open(tmp, 'wx', mode ?? 0o666);
    wroteTemp = true;
    try {
      await handle.writeFile(bytes);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // No await from the check to the rename (see writeFileIfUnchanged).
    if (beforeRename && !beforeRename()) {
      await fsp.unlink(tmp).catch(() => undefined);
      wroteTemp = false;
      return null;
    }
    opts.ownWrites?.note(relPath, hash);
    // And no link on the way now: a folder swapped for a link while the temp file was written and
    // synced is not written through (the check and the rename run back to back, as above).
    resolveForWrite(root, relPath);
    fs.renameSync(tmp, abs);
    wroteTemp = false;
    await syncDir(dir);
  } catch (e) {
    if (wroteTemp) await fsp.unlink(tmp).catch(() => undefined);
    if (isSpacesyncError(e)) throw e;
    throw mirrorIoError('write', relPath, root, e);
  }
  return hash;
}
