// The mirror's atomic file operations. A write leaves a mirror file holding either its old or its new content at every
// instant: a temp file beside it (ignored by the watcher), fsync, rename over, fsync the folder.
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isSpacesyncError } from '../errors.js';
import { assertRoot } from './assertRoot.js';
import { hashText, mirrorIoError } from './readMirrorFile.js';
import type { OwnWrites } from './OwnWrites.js';
import { resolveForWrite, resolveInRoot } from './resolveInRoot.js';
import { randomBytes } from 'node:crypto';

// The name of the daemon's own temporary files: dot-prefixed (so every watcher and the ignore
// rules skip it), beside the target (so the rename stays on one file system), recognisable.
const MAX_NAME_BYTES = 100; // keeps the temp name under the usual 255-byte limit

/** `.<name>.spacesync-<random>.tmp`, the name cut to a safe length on a character boundary. */
export function tempFileName(fileName: string, random: string = randomBytes(6).toString('hex')): string {
  let kept = '';
  let bytes = 0;
  for (const ch of fileName) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_NAME_BYTES) break;
    kept += ch;
  }
  return `.${kept}.spacesync-${random}.tmp`;
}

const TEMP_RE = /^\..*\.spacesync-[0-9a-f]+\.tmp$/s;

export function isTempFileName(fileName: string): boolean {
  return TEMP_RE.test(fileName);
}

// fsync of a directory, so a rename in it survives a power cut. Some platforms (Windows) cannot
// open a directory for this; there the rename's own durability is all there is.
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

// Moves a mirror file by one rename (so it is never at both names, never at neither), creating
// the target's folders, and never over a different file that is already there.
export type MoveResult =
  /** `hash`: the bytes moved (an edit saved after the caller looked is in them). */
  | { ok: true; outcome: 'moved'; hash: string }
  /** The target already held the same bytes: the source was removed. */
  | { ok: true; outcome: 'already_there' }
  | { ok: false; reason: 'target_exists' | 'source_missing'; message: string };

export interface MoveFileOptions {
  /** Told about the removal and the arrival before the rename, so the watcher drops both events. */
  ownWrites?: OwnWrites;
}

async function readOrNull(abs: string): Promise<Buffer | null> {
  try {
    return await fsp.readFile(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export async function moveFileAtomic(root: string, from: string, to: string, opts: MoveFileOptions = {}): Promise<MoveResult> {
  const src = resolveForWrite(root, from);
  const dst = resolveForWrite(root, to);
  await assertRoot(root);
  try {
    const source = await readOrNull(src);
    if (source === null) {
      return { ok: false, reason: 'source_missing', message: `Cannot move "${from}" to "${to}" in ${root}: "${from}" is not there any more.` };
    }
    const srcStat = await fsp.stat(src);
    const dstStat = await fsp.stat(dst).catch(() => null);
    // Same inode: a case-only rename on a case-insensitive disk (or from === to).
    const sameFile = dstStat !== null && dstStat.ino === srcStat.ino && dstStat.dev === srcStat.dev;
    if (dstStat !== null && !sameFile) {
      const target = await readOrNull(dst);
      if (target !== null && target.equals(source)) {
        opts.ownWrites?.note(from, null);
        await fsp.unlink(src);
        await syncDir(path.dirname(src));
        return { ok: true, outcome: 'already_there' };
      }
      return {
        ok: false,
        reason: 'target_exists',
        message: `Cannot move "${from}" to "${to}" in ${root}: a different file already has that name. Both were left as they are.`,
      };
    }
    const hash = hashText(source);
    if (src === dst) return { ok: true, outcome: 'moved', hash };
    await fsp.mkdir(path.dirname(dst), { recursive: true });
    if (opts.ownWrites) {
      opts.ownWrites.note(from, null);
      opts.ownWrites.note(to, hash);
    }
    // No link on the way now either (a folder swapped for one since the first look), checked with
    // no await before the rename: a move never goes through a link.
    resolveForWrite(root, from);
    resolveForWrite(root, to);
    fs.renameSync(src, dst);
    await syncDir(path.dirname(dst));
    if (path.dirname(dst) !== path.dirname(src)) await syncDir(path.dirname(src));
    return { ok: true, outcome: 'moved', hash };
  } catch (e) {
    if (isSpacesyncError(e)) throw e;
    throw mirrorIoError(`move to "${to}"`, from, root, e);
  }
}

// Deletes the daemon's own temp files a crash left behind (`.<name>.spacesync-<random>.tmp`).
// Call it at start, after taking the lock: no other daemon can be writing them then.
/** Returns the removed files (posix, relative to the root). Skips dot-folders such as .git. */
export async function removeTempFiles(root: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable or gone: nothing of ours can be removed there
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile() && isTempFileName(e.name)) {
        await fsp.unlink(path.join(dir, e.name)).catch(() => undefined);
        removed.push(childRel);
      } else if (e.isDirectory() && !e.name.startsWith('.')) {
        await walk(path.join(dir, e.name), childRel);
      }
    }
  };
  await walk(root, '');
  return removed.sort();
}
