// The files a cycle held back (not UTF-8 text, or wiping their document), kept in the journal's
// state so `spacesync status` names them without reading the mirror again. A scan of some paths
// (the watcher's) replaces only what it looked at. The pull reads it too: it never writes over a
// held-back file, nor puts its document's file back elsewhere.
import type { Journal } from '../../journal/index.js';

/** A file whose changes this cycle does not send, whatever else it does: the user decides. */
export interface HeldBackFile {
  path: string;
  /**
   * `undecodable`: not UTF-8 text; `wipe`: it would delete all (or most) of its document's blocks;
   * `orphan`: found without a journal, it names a document the space no longer has; `symlink`: a
   * symbolic link stands where a document's file or a folder is; `deletion`: the file is gone, but a
   * file that cannot be read (or a folder replaced by a link) may hold it, moved; `link_claim`: a file
   * names a document whose file is under such a link (it moved out, or it is a copy); `backup`:
   * changed here in backup mode, kept and never sent; `mode_switch`: such a change, met again after
   * the switch to two-way mode.
   */
  reason: 'undecodable' | 'wipe' | 'orphan' | 'symlink' | 'deletion' | 'link_claim' | 'backup' | 'mode_switch';
  message: string;
  /** The document, when the file is a known one's. */
  docId?: string;
  /** Byte offset of the first bad sequence (undecodable). */
  offset?: number;
  /** The file's hash when it was held back (wipe): an approval is of these bytes only. */
  hash?: string;
}

const HELD_BACK = 'push.heldBack';

export function readHeldBack(journal: Journal): HeldBackFile[] {
  const list = journal.getState<HeldBackFile[]>(HELD_BACK);
  return Array.isArray(list) ? list : [];
}

/** Records `found`: the whole list after a full scan, else in place of the entries for `scanned`. */
export function recordHeldBack(journal: Journal, found: readonly HeldBackFile[], scanned?: readonly string[]): void {
  const looked = scanned ? new Set(scanned) : null;
  const before = readHeldBack(journal);
  const kept = looked ? before.filter((h) => !looked.has(h.path) && !found.some((f) => f.path === h.path)) : [];
  const next = [...kept, ...found].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (JSON.stringify(next) === JSON.stringify(before)) return; // unchanged (an idle poll): not written again
  if (next.length === 0) journal.deleteState(HELD_BACK);
  else journal.setState(HELD_BACK, next);
}

/** State key: the files an adoption found naming a document the space no longer has (core/files/adoption). */
export const ADOPTION_ORPHANS = 'adopt.orphans';

/** The documents named by files found without a journal that the space no longer has: never sent as new ones. */
export function readOrphans(journal: Journal): Array<{ path: string; docId: string }> {
  const list = journal.getState<Array<{ path: string; docId: string }>>(ADOPTION_ORPHANS);
  return Array.isArray(list) ? list : [];
}

/**
 * State key: the changes backup mode kept here, by path: the file's hash then (null: deleted here).
 * Made under the promise that they would not be sent, they are held back once after a switch to
 * two-way mode, while the file is still as it was (an edit since, --force or a revert lets them go).
 */
export const BACKUP_KEPT = 'backup.kept';

export function readBackupKept(journal: Journal): Record<string, string | null> {
  const v = journal.getState<Record<string, string | null>>(BACKUP_KEPT);
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

/** Records `kept`: the whole set after a full scan, else in place of the entries for `scanned`. */
export function recordBackupKept(journal: Journal, kept: Record<string, string | null>, scanned?: readonly string[]): void {
  const before = readBackupKept(journal);
  const next: Record<string, string | null> = {};
  if (scanned) {
    const looked = new Set(scanned);
    for (const [p, h] of Object.entries(before)) if (!looked.has(p)) next[p] = h;
  }
  Object.assign(next, kept);
  if (JSON.stringify(next) === JSON.stringify(before)) return;
  if (Object.keys(next).length === 0) journal.deleteState(BACKUP_KEPT);
  else journal.setState(BACKUP_KEPT, next);
}

/** The file hash recorded when a file holds changes that were not sent: never a real hash, so the file stays pending. */
export const UNSENT = 'unsent';
