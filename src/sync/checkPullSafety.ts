// Refusals before a pull removes anything: an empty listing where the journal knows documents (a
// wrong link, a space emptied by mistake) and a purge of more than maxDeletePercent of them.
export interface SafetyRefusal {
  reason: 'empty_remote' | 'mass_delete';
  message: string;
  /** The files the refused cycle would have removed (set by the cycle, which knows their paths). */
  deletes?: string[];
}

/** Fewer removals than this are never a mass delete, so a small space can still lose a document. */
export const MASS_DELETE_MIN = 3;

export function checkPullSafety(input: { known: number; listed: number; purged: number; maxDeletePercent: number; force: boolean }): SafetyRefusal | null {
  if (input.force || input.known === 0) return null;
  if (input.listed === 0) {
    return {
      reason: 'empty_remote',
      message: `The space lists no documents at all, but ${input.known} were synced into this folder before. Nothing was changed. Check that the link points at the right space; if the space really is empty now, run again with --force.`,
    };
  }
  const share = (input.purged / input.known) * 100;
  if (input.purged >= MASS_DELETE_MIN && share > input.maxDeletePercent) {
    return {
      reason: 'mass_delete',
      message: `${input.purged} of ${input.known} documents (${Math.round(share)}%) are gone from the space, more than the ${input.maxDeletePercent}% allowed in one cycle. Nothing was changed. Check the space; if they really were deleted, run again with --force (their files are kept in .spacesync/purged/).`,
    };
  }
  return null;
}
