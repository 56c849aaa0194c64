// Document-level decisions (docs/sync-decisions.md, Documents): a file and a document, each created, edited,
// renamed, moved, trashed or deleted on either side, by id. An edit beats a delete here too.
import type { DocLocation } from '../types.js';

/** Where a document goes: a built-in location or a folder (an id, or the ref of a folder created in this plan). */
export type Destination = { location: 'unsorted' | 'templates' } | { folderId: string };

interface SidePlacement {
  title: string;
  location: DocLocation;
  /** The folder when location is `folder` (a ref for a directory that is no folder yet). */
  folderId: string | null;
  dailyNoteDate?: string | null;
}

export interface BaseSide extends SidePlacement {
  id: string;
  path: string;
}
/** The file: where it is and what its front matter and name say; `changed`: its text differs from the base's. */
export interface LocalSide extends SidePlacement {
  path: string;
  changed: boolean;
}
/** The listing: `changed`: its lastModifiedAt moved since the base. */
export interface RemoteSide extends SidePlacement {
  id: string;
  changed: boolean;
}

export interface DocumentDecision {
  /** Block content: nothing, push the file, pull the service, merge both, or send the file to a document created now. */
  content: 'none' | 'push' | 'pull' | 'merge' | 'create';
  /** Create the document: `POST /documents` (then its content), or a daily note by its date. */
  create?: { title: string; destination: Destination } | { dailyNoteDate: string };
  /** The new title: the root block's markdown (`PUT /blocks`). */
  rename?: string;
  /** `PUT /documents/move`: a move, or a restore out of the trash. */
  move?: Destination;
  /** `DELETE /documents` (soft: to the trash). */
  trash?: boolean;
  /** The file must be written from the service although the file says otherwise (it was deleted, or trashed against an edit). */
  rewrite?: boolean;
  /** The file goes: the document is gone from the space and the file holds nothing new. */
  removeFile?: boolean;
  /** The journal entry goes: gone on both sides. */
  forget?: boolean;
  /** The title changed on both sides, differently: the service's stays, the file's is kept in a conflict copy named by it. */
  titleConflict?: { local: string; remote: string };
  conflicts: string[];
  problems: string[];
}

export interface DecideInput {
  base?: BaseSide;
  local?: LocalSide;
  remote?: RemoteSide;
}

function destinationOf(p: SidePlacement): Destination | undefined {
  if (p.location === 'unsorted' || p.location === 'templates') return { location: p.location };
  if (p.location === 'folder' && p.folderId) return { folderId: p.folderId };
  return undefined;
}

const samePlace = (a: SidePlacement, b: SidePlacement) => a.location === b.location && (a.location !== 'folder' || a.folderId === b.folderId);
const none = (): DocumentDecision => ({ content: 'none', conflicts: [], problems: [] });

export function decideDocument({ base, local, remote }: DecideInput): DocumentDecision {
  const d = none();
  if (!base) {
    if (local && !remote) return createFromFile(local, d);
    if (remote && !local) return { ...d, content: 'pull' };
    // A file that names a document the journal does not know (a journal lost, a mirror copied in):
    // both sides are new to each other; merging keeps everything and takes what is alike once.
    if (local && remote) return { ...d, content: 'merge' };
    return d;
  }
  if (!local && !remote) return { ...d, forget: true };
  if (!local) {
    // The file was deleted. An edit on the service since beats that: the file comes back.
    if (remote!.changed) return { ...d, content: 'pull', rewrite: true };
    if (remote!.location === 'trash') {
      if (base.location === 'trash')
        d.problems.push(`The service cannot delete a document for good; it stays in its trash (and in Trash/) until the service purges it.`);
      return { ...d, rewrite: true };
    }
    return { ...d, trash: true };
  }
  if (!remote) {
    // Gone from the space (purged). A file changed since is not lost: it becomes a new document.
    if (local.changed) return createFromFile(local, d);
    return { ...d, removeFile: true, forget: true };
  }

  const lc = local.changed;
  const rc = remote.changed;
  d.content = lc && rc ? 'merge' : lc ? 'push' : rc ? 'pull' : 'none';

  const baseTrash = base.location === 'trash';
  const localTrash = local.location === 'trash';
  const remoteTrash = remote.location === 'trash';
  if (!baseTrash && localTrash && !remoteTrash) {
    // Trashed in the mirror. An edit on the service beats it: the document stays, the file goes back.
    if (rc) return { ...d, content: 'pull', rewrite: true };
    // Edited on its way to Trash/: the edit goes first, so the trashed document holds it.
    return { ...d, trash: true, content: lc ? 'push' : 'none' };
  }
  if (!baseTrash && remoteTrash && !localTrash) {
    // Trashed on the service. An edit in the file beats it: pushed, and the document restored.
    if (lc) {
      const to = destinationOf(local);
      if (to) d.move = to;
      else
        d.problems.push(
          'This daily note was moved to the trash on the service; daily notes cannot be restored through the API, so the edit is kept in the file only.',
        );
    }
    return d;
  }
  if (baseTrash && !localTrash && remoteTrash) {
    // Moved out of Trash/ in the mirror: restore it there.
    const to = destinationOf(local);
    if (to) d.move = to;
    else d.problems.push('A document can only be restored from the trash into Unsorted, Templates or a folder.');
    return withTitle(d, base, local, remote);
  }
  if (!samePlace(local, base) && samePlace(remote, base)) {
    if (base.location === 'daily_notes') d.problems.push('Daily notes cannot be moved; the file goes back to Daily Notes/.');
    else if (local.location === 'daily_notes') d.problems.push('A document cannot become a daily note by moving its file; it goes back.');
    else {
      const to = destinationOf(local);
      if (to) d.move = to;
    }
  }
  // Both moved: the service's place wins (no text is at stake); the layout moves the file.
  return withTitle(d, base, local, remote);
}

function withTitle(d: DocumentDecision, base: BaseSide, local: LocalSide, remote: RemoteSide): DocumentDecision {
  if (base.location === 'daily_notes') return d; // named by date; the title is the service's
  const lt = local.title !== base.title;
  const rt = remote.title !== base.title;
  if (lt && !rt) d.rename = local.title;
  else if (lt && rt && local.title !== remote.title) {
    d.titleConflict = { local: local.title, remote: remote.title };
    d.conflicts.push(
      `The title changed on both sides: "${local.title}" in the file, "${remote.title}" on the service. The service's title is kept; yours is kept in a conflict copy beside the file.`,
    );
  }
  return d;
}

function createFromFile(local: LocalSide, d: DocumentDecision): DocumentDecision {
  if (local.location === 'trash') {
    d.problems.push('A new file in Trash/ is not sent: move it out of Trash/ to create a document.');
    return d;
  }
  if (local.location === 'daily_notes') {
    if (local.dailyNoteDate && /^\d{4}-\d{2}-\d{2}$/.test(local.dailyNoteDate))
      return { ...d, content: 'create', create: { dailyNoteDate: local.dailyNoteDate } };
    d.problems.push("A new file in Daily Notes/ must be named by its date (YYYY-MM-DD.md) to become that day's note.");
    return d;
  }
  const destination = destinationOf(local) ?? { location: 'unsorted' as const };
  return { ...d, content: 'create', create: { title: local.title, destination } };
}
