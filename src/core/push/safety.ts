// Safety predicates checked before a cycle changes anything, the push's and the pull's alike: a mass
// delete (either way), a missing or empty mirror, an empty listing where the journal knows documents.
// A refusal is data whose message names the numbers and how the person goes ahead: `spacesync
// approve` (which a running daemon takes at its next cycle; status and the console name it whole,
// with the folder), or `sync --once --force` when no daemon runs.

export interface SafetyInput {
  /** Documents the journal knows. */
  known: number;
  /** Documents this cycle would move to the service's trash (files deleted, or moved into Trash/). */
  remoteDeletes: number;
  /** Files this cycle would remove from the mirror (documents the service no longer lists). */
  localDeletes: number;
  /** Left out by a caller that checks the mirror folder itself (the pull). */
  rootExists?: boolean;
  /** Document files found in the mirror; left out by a caller that does not scan it (the pull). */
  localFiles?: number;
  /** Documents the service listed. */
  remoteListed: number;
  /** From the config (default 50). */
  maxDeletePercent: number;
  force: boolean;
}

export type SafetyReason = 'root_missing' | 'root_empty' | 'remote_empty' | 'mass_delete_remote' | 'mass_delete_local' | 'document_wipe';

export type SafetyVerdict =
  { ok: true; /** Set when --force let through what would have been refused. */ forced?: SafetyReason } | { ok: false; reason: SafetyReason; message: string };

/** A refused cycle as the push and the pull report it (and `spacesync status` shows it). */
export interface SafetyRefusal {
  reason: SafetyReason;
  message: string;
  /** The files the refused cycle would have removed or trashed (set by the cycle, which knows their paths). */
  deletes?: string[];
}

const pct = (n: number, of: number) => Math.round((100 * n) / Math.max(1, of));
/** How a refused cycle goes ahead, beside a running daemon or not. */
const APPROVE_DELETES =
  'approve these deletes with `spacesync approve --deletes` (a running daemon goes ahead at its next cycle; with none, `sync --once --force` does too)';

/**
 * A single document's deletion is never a mass delete, whatever share of a tiny space it is
 * (deleting the only document of a one-document space is allowed); two or more are counted.
 */
export const MIN_MASS_DELETE = 2;

/** More than `limit` percent of `known`, and at least MIN_MASS_DELETE. */
const isMassDelete = (count: number, known: number, limit: number) => count >= MIN_MASS_DELETE && 100 * count > limit * Math.max(1, known);

/** The one rule for a cycle's deletes, empty mirror and empty listing, for the push and the pull. */
export function checkSafety(s: SafetyInput): SafetyVerdict {
  const refuse = (reason: SafetyReason, message: string): SafetyVerdict => (s.force ? { ok: true, forced: reason } : { ok: false, reason, message });
  if (s.rootExists === false) {
    return refuse(
      'root_missing',
      `The mirror folder is missing, so every one of the ${s.known} known documents would look deleted. Nothing was changed. Check the folder (an unmounted disk?) and run again; with no daemon running, \`sync --once --force\` goes ahead anyway.`,
    );
  }
  if (s.known > 0 && s.localFiles === 0) {
    return refuse(
      'root_empty',
      `The mirror folder holds no documents while the journal knows ${s.known}: all of them would be moved to the service's trash. Nothing was changed. Restore the files, or if they were deleted on purpose, ${APPROVE_DELETES}.`,
    );
  }
  if (s.known > 0 && s.remoteListed === 0) {
    return refuse(
      'remote_empty',
      `The space lists no documents at all, but ${s.known} were synced into this folder before. Nothing was changed. Check that the link points at the right space; if the space really is empty now, ${APPROVE_DELETES}.`,
    );
  }
  const limit = s.maxDeletePercent;
  if (isMassDelete(s.remoteDeletes, s.known, limit)) {
    return refuse(
      'mass_delete_remote',
      `This cycle would move ${s.remoteDeletes} of ${s.known} documents (${pct(s.remoteDeletes, s.known)}%) to the service's trash, more than the ${limit}% allowed (maxDeletePercent). Nothing was changed. If the files were deleted on purpose, ${APPROVE_DELETES}.`,
    );
  }
  if (isMassDelete(s.localDeletes, s.known, limit)) {
    return refuse(
      'mass_delete_local',
      `${s.localDeletes} of ${s.known} documents (${pct(s.localDeletes, s.known)}%) are gone from the space, more than the ${limit}% allowed in one cycle (maxDeletePercent). Nothing was changed. Check the space; if they really were deleted there, ${APPROVE_DELETES}; their files are kept in .spacesync/purged/.`,
    );
  }
  return { ok: true };
}

/** The pull's check: an empty listing, or a purge of too many files (documents no longer listed). */
export function checkPullSafety(p: { known: number; listed: number; purged: number; maxDeletePercent: number; force: boolean }): SafetyRefusal | null {
  const v = checkSafety({
    known: p.known,
    remoteDeletes: 0,
    localDeletes: p.purged,
    remoteListed: p.listed,
    maxDeletePercent: p.maxDeletePercent,
    force: p.force,
  });
  return v.ok ? null : { reason: v.reason, message: v.message };
}

export interface DocumentWipeInput {
  /** The file, for the message. */
  path: string;
  /** Blocks the document holds in base (every level). */
  baseBlocks: number;
  /** Of those, blocks with text (not blank). */
  baseWithText: number;
  /** Blocks with text the file holds now (every level). */
  localWithText: number;
  /** Blocks this push would delete from the document. */
  deletes: number;
  /** From the config (default 50). */
  maxDeletePercent: number;
  force: boolean;
}

/** A document this long or longer is guarded against losing most of its blocks in one push. */
export const WIPE_MIN_BLOCKS = 20;

/**
 * One document's mass delete: a file reduced to no blocks (empty, blank, front matter alone) whose
 * document has text in base, or a push deleting more than maxDeletePercent of a document of at least
 * WIPE_MIN_BLOCKS blocks (an editor crash, a full disk, a tool that truncates before writing). The
 * file is held back, not the cycle; deleting the file (the document goes to the trash), approving it
 * as it is (`spacesync approve`) or --force goes ahead.
 */
const approveFile = (path: string) =>
  `\`spacesync approve "${path}"\` (a running daemon sends it at its next cycle; with none, \`sync --once --force\` does too)`;

export function checkDocumentWipe(s: DocumentWipeInput): SafetyVerdict {
  const refuse = (message: string): SafetyVerdict => (s.force ? { ok: true, forced: 'document_wipe' } : { ok: false, reason: 'document_wipe', message });
  if (s.localWithText === 0 && s.baseWithText > 0) {
    return refuse(
      `"${s.path}" holds no blocks any more (it is empty, blank or front matter alone) while its document has ${s.baseWithText} block${s.baseWithText === 1 ? '' : 's'} with text: sending it would delete all of them in the space. It was held back; nothing of it was sent and the file is not written over. If you emptied it on purpose, send it as it is with ${approveFile(s.path)}; to remove the document, delete the file (it goes to the trash).`,
    );
  }
  const limit = s.maxDeletePercent;
  if (s.baseBlocks >= WIPE_MIN_BLOCKS && pct(s.deletes, s.baseBlocks) > limit) {
    return refuse(
      `"${s.path}" would delete ${s.deletes} of its document's ${s.baseBlocks} blocks (${pct(s.deletes, s.baseBlocks)}%), more than the ${limit}% allowed (maxDeletePercent). It was held back; nothing of it was sent and the file is not written over. If those blocks were removed on purpose, send it as it is with ${approveFile(s.path)}.`,
    );
  }
  return { ok: true };
}
