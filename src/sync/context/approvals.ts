// What a person approved that a safety check held back: a file that would wipe its document, or the
// deletes of a refused cycle. `spacesync approve` (and the console) writes them into the journal's
// state, beside a running daemon or not; the push's and the pull's safety checks read them at their
// next look. An approval is of exactly what status listed: a file by the hash it had when it was
// held back (changed again since, it is held again), the deletes by the set of files they were (one
// file more or less, the cycle is refused again). Each is used once: the push or pull that goes
// ahead on it removes it, so the same bytes emptied again later are held again. One that no longer
// matches what waits (the file changed again and was held back anew, or sent, or deleted; the
// cycle refused with other deletes, or not refused) is dropped after the report that showed it.
import type { Journal } from '../../journal/index.js';
import { readRefusal } from '../../journal/daemonStatus.js';
import { hashText } from '../../mirror/index.js';
import { readHeldBack } from './heldBackState.js';

/** A held-back file let through as it was: its path and the hash it had when it was held back. */
export interface FileApproval {
  path: string;
  hash: string;
  at: string;
}

/** A refused cycle let through: its reason and the set of its deletes (deletesKey). */
export interface DeletesApproval {
  reason: string;
  key: string;
  count: number;
  at: string;
}

export interface Approvals {
  files: FileApproval[];
  deletes: DeletesApproval | null;
}

const APPROVALS = 'approvals';

/** The identity of a set of deleted files: the same files in any order give the same key. */
export function deletesKey(paths: readonly string[]): string {
  return hashText([...new Set(paths)].sort().join('\n'));
}

export function readApprovals(journal: Journal): Approvals {
  const v = journal.getState<Partial<Approvals>>(APPROVALS);
  const files = Array.isArray(v?.files) ? v.files.filter((f) => typeof f?.path === 'string' && typeof f.hash === 'string') : [];
  const d = v?.deletes;
  const deletes = d && typeof d.reason === 'string' && typeof d.key === 'string' ? d : null;
  return { files, deletes };
}

function write(journal: Journal, a: Approvals): void {
  if (a.files.length === 0 && a.deletes === null) journal.deleteState(APPROVALS);
  else journal.setState(APPROVALS, a);
}

/** Records approvals (a file approved again replaces its earlier approval; deletes replace the earlier ones). */
export function recordApprovals(journal: Journal, add: { files?: readonly FileApproval[]; deletes?: DeletesApproval }): void {
  journal.transaction(() => {
    const now = readApprovals(journal);
    const paths = new Set((add.files ?? []).map((f) => f.path));
    write(journal, {
      files: [...now.files.filter((f) => !paths.has(f.path)), ...(add.files ?? [])],
      deletes: add.deletes ?? now.deletes,
    });
  });
}

/** Whether the file at `path`, with these bytes, was approved. */
export function fileApproved(a: Approvals, path: string, hash: string): boolean {
  return a.files.some((f) => f.path === path && f.hash === hash);
}

/** Whether a cycle refused for `reason` with exactly these deletes was approved. */
export function deletesApproved(a: Approvals, reason: string, deletes: readonly string[]): boolean {
  return a.deletes !== null && a.deletes.reason === reason && a.deletes.key === deletesKey(deletes);
}

/** Removes the approvals a push or pull went ahead on. */
export function useApprovals(journal: Journal, used: { files?: readonly string[]; deletes?: boolean }): void {
  if ((used.files?.length ?? 0) === 0 && !used.deletes) return;
  journal.transaction(() => {
    const now = readApprovals(journal);
    const gone = new Set(used.files ?? []);
    write(journal, { files: now.files.filter((f) => !gone.has(f.path)), deletes: used.deletes ? null : now.deletes });
  });
}

/**
 * Drops the approvals of what no longer waits as it was approved: a file not held back any more
 * with the approved hash, deletes whose set is not the one the last refusal recorded. Run after
 * each report, once the held-back files and the refusal are recorded.
 */
export function dropStaleApprovals(journal: Journal): void {
  const now = readApprovals(journal);
  if (now.files.length === 0 && now.deletes === null) return;
  const held = readHeldBack(journal);
  const files = now.files.filter((f) => held.some((h) => h.path === f.path && h.hash === f.hash));
  const refusal = readRefusal(journal);
  const deletes = now.deletes && refusal?.key === now.deletes.key && refusal.reason === now.deletes.reason ? now.deletes : null;
  if (files.length !== now.files.length || deletes !== now.deletes) write(journal, { files, deletes });
}
