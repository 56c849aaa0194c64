// The pull's plan: what one cycle does to the mirror for what the space changed, decided from one
// listing, the journal's records, the files changed here and the layout, before any file is
// touched. The shell runs it step by step; `sync --dry-run` and `plan` print the same object.
import type { ContainerKey, Placement } from '../remoteTypes.js';

/** How a file differs from what the daemon last wrote or read: changed bytes, or gone. */
export type LocalChange = 'edited' | 'missing';

/** What the plan reads of a journal record of a document. */
export interface PullRecord extends Placement {
  id: string;
  path: string;
  title: string;
  remoteModifiedAt: string | null;
  /** null when no file was written for it yet. */
  fileHash: string | null;
}

/** What the plan reads of a journal record of a folder. */
export interface PullFolderRecord {
  id: string;
  path: string;
}

/**
 * One folder's step. A `move` is one directory rename that carries the documents and subfolders
 * inside (or, when something that is no folder holds the new name on disk, a new directory that
 * they move into one by one). `create` also names a built-in location's missing directory.
 */
export type FolderStep =
  | { kind: 'create'; id: string; path: string }
  | { kind: 'move'; id: string; from: string; to: string }
  /** Gone from the space: its directory is removed once nothing is left in it. */
  | { kind: 'remove'; id: string; path: string };

/** Why a document's file is written whole. */
/** `backup_overwrite`: backup mode, the space changed a document changed (or deleted) here too: its version wins. */
export type WriteReason = 'new_document' | 'never_written' | 'backup_overwrite';
/** Why a document's file moves. */
export type MoveReason = 'placement_changed' | 'name_changed' | 'found_there';
/** Why a document's file is left as it is. */
export type KeepReason = 'changed_here' | 'changed_both_sides';
/** Why a document's step cannot be taken this cycle (it is tried again on the next). */
export type BlockedReason = 'ignored' | 'path_held' | 'symlink';

/** One document's step; a document can have two (a move, then its update; a kept file whose document was purged). */
export type DocumentStep =
  /** A file written whole: a document new here, or one recorded but never written. */
  | { kind: 'write'; id: string; path: string; reason: WriteReason }
  /** A file brought up to date in place: only the changed blocks' ranges are rewritten. */
  | { kind: 'splice'; id: string; path: string; reason: 'remote_changed' }
  /**
   * A file renamed or moved (one rename, never delete + create). `found_there`: the file is
   * already at `to`, unchanged (a run stopped after the rename): only recorded. A move whose
   * folder moves as one is no step: the directory rename carries it.
   */
  | { kind: 'move'; id: string; from: string; to: string; placement: Placement; reason: MoveReason }
  /** Placement recorded, the file stays where it is. */
  | { kind: 'place'; id: string; path: string; placement: Placement }
  /** A document purged from the space: its file moves to the state directory's purged/ folder. */
  | { kind: 'purge'; id: string; path: string }
  /**
   * A file changed here, left as it is (the merge decides). With `check`, the document is read:
   * a file that already says what the space says is recorded as is, else it stays pending.
   */
  | { kind: 'keep'; id: string; path: string; change: LocalChange; remoteChanged: boolean; check: boolean; reason: KeepReason }
  | { kind: 'blocked'; id: string; path: string; reason: BlockedReason };

export interface PullPlan {
  folders: FolderStep[];
  documents: DocumentStep[];
  /**
   * Containers whose membership change this plan does not apply (a blocked or kept document, a
   * document no listing placed): their counts are not recorded, so the next cycle lists them again.
   */
  unsettled: ContainerKey[];
  // Extension point. A new kind of content the mirror holds gets its own list of steps here,
  // decided in planPull beside the documents' and run by the pull's executor after them:
  //   assets (files of images and attachments, by content hash), links (document references
  //   rewritten to relative paths), history (versions kept under the state directory), tasks,
  //   whiteboards and collections (their own file kinds). Each list is printed by the dry run
  //   through pullPlanSummary, so the plan printed stays the plan run.
}

/** The plan's steps by kind, paths sorted: what the dry run prints. */
export interface PullPlanSummary {
  createFolders: string[];
  moveFolders: Array<{ from: string; to: string }>;
  /** Directories of folders gone from the space (removed when nothing else is left in them). */
  removeFolders: string[];
  /** New files. */
  create: string[];
  /** Files to bring up to date (only their changed blocks are rewritten). */
  update: string[];
  move: Array<{ from: string; to: string }>;
  /** Files moved to .spacesync/purged/. */
  purge: string[];
  /** Files changed locally: left as they are. */
  keep: Array<{ path: string; change: LocalChange }>;
  /** Documents that wait for the next cycle: their path is ignored, or another file keeps it. */
  blocked: Array<{ path: string; reason: string }>;
}

const sorted = (xs: string[]) => xs.sort();

/** The plan's steps by kind, paths sorted: what `plan --json` gives scripts. */

export function summarizePullPlan(plan: PullPlan | null): PullPlanSummary {
  const f = plan?.folders ?? [];
  const d = plan?.documents ?? [];
  return {
    createFolders: sorted(f.flatMap((s) => (s.kind === 'create' ? [s.path] : []))),
    moveFolders: f.flatMap((s) => (s.kind === 'move' ? [{ from: s.from, to: s.to }] : [])),
    removeFolders: sorted(f.flatMap((s) => (s.kind === 'remove' ? [s.path] : []))),
    create: sorted(d.flatMap((s) => (s.kind === 'write' ? [s.path] : []))),
    update: sorted(d.flatMap((s) => (s.kind === 'splice' ? [s.path] : []))),
    move: d.flatMap((s) => (s.kind === 'move' && s.reason !== 'found_there' ? [{ from: s.from, to: s.to }] : [])),
    purge: sorted(d.flatMap((s) => (s.kind === 'purge' ? [s.path] : []))),
    keep: d.flatMap((s) => (s.kind === 'keep' ? [{ path: s.path, change: s.change }] : [])),
    blocked: d.flatMap((s) => (s.kind === 'blocked' ? [{ path: s.path, reason: s.reason }] : [])),
  };
}
