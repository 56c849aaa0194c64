// Moves a mirror file by one rename (so it is never at both names, never at neither), creating
// the target's folders, and never over a different file that is already there.
import fs, { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isSpacesyncError } from '../errors.js';
import { assertRoot } from './assertRoot.js';
import { hashText } from './hashText.js';
import { mirrorIoError } from './mirrorIoError.js';
import type { OwnWrites } from './OwnWrites.js';
import { resolveForWrite } from './resolveInRoot.js';
import { syncDir } from './syncDir.js';

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
