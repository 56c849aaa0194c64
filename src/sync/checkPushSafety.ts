// Refusals before a push sends anything: a mirror emptied (an unmounted disk, a wrong --dir), a
// listing of nothing where the journal knows documents (a wrong link), and more than
// maxDeletePercent of the documents deleted at once (an `rm -rf` by mistake). `--force` overrides.
import type { PushRefusal } from './PushPlan.js';
import { MASS_DELETE_MIN } from './checkPullSafety.js';

export interface PushSafetyInput {
  root: string;
  /** Documents with a file in the mirror (the trash's aside). */
  known: number;
  /** Documents the journal records at all. */
  recorded: number;
  /** Documents the space lists now. */
  listed: number;
  /** Documents whose file is gone, to be deleted in the space. */
  deleting: number;
  /** Document files a full scan found; undefined when only some paths were looked at. */
  filesSeen: number | undefined;
  maxDeletePercent: number;
  force: boolean;
}

export function checkPushSafety(i: PushSafetyInput): PushRefusal | null {
  if (i.force) return null;
  if (i.recorded > 0 && i.listed === 0) {
    return {
      reason: 'empty_remote',
      message: `The space lists no documents at all, but ${i.recorded} were synced into this folder before. Nothing was sent. Check that the link points at the right space; if the space really is empty now, run again with --force.`,
    };
  }
  if (i.filesSeen === 0 && i.known > 0) {
    return {
      reason: 'empty_root',
      message: `The mirror folder ${i.root} holds no document files, but ${i.known} were synced into it before (a disk not mounted, or the wrong folder?). Nothing was deleted in the space. Check the folder; if you really deleted every file, run again with --force.`,
    };
  }
  const share = i.known === 0 ? 0 : (i.deleting / i.known) * 100;
  if (i.deleting >= MASS_DELETE_MIN && share > i.maxDeletePercent) {
    return {
      reason: 'mass_delete',
      message: `${i.deleting} of ${i.known} documents (${Math.round(share)}%) have their files gone from ${i.root}, more than the ${i.maxDeletePercent}% allowed in one cycle. Nothing was sent. Put the files back (or restore them from a backup); if you meant to delete them, run again with --force (they go to the space's trash).`,
    };
  }
  return null;
}
