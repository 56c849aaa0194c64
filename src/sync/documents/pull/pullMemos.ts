// What the pull remembers of its last complete work, per journal, in the memory of the process that
// made it (the daemon): the listing and the layout an idle poll compares with instead of redoing.
//
// The last complete listing of the space whose changes the pull applied all of: every
// document as listed (id, title, lastModifiedAt, createdAt), the folder tree with its counts, and
// when it was taken. A poll compares the service's recent changes with it (listRecent) instead of
// listing every document again. Kept in memory by the process that made it (the daemon); a cycle
// forgets it before it changes anything and remembers the new one only when it settled everything.
import type { Journal, DocumentRecord, FolderRecord } from '../../../journal/index.js';
import { DAILY_NOTES, type ContainerKey, type RemoteDocument, type RemoteFolder } from '../../../core/remoteTypes.js';
import type { Layout, LayoutDocument } from '../../../core/pull/layout.js';

export interface CompleteListing {
  /** When it was taken (before its requests were sent), or when a later poll found nothing changed since. */
  takenAt: string;
  documents: ReadonlyMap<string, RemoteDocument>;
  /** The folder tree with every container's count (treePrint). */
  tree: string;
  /** The journal's data_version then: another process that wrote the journal since voids it. */
  dataVersion: number;
}

/** The folder tree as one string: each folder's id, name, parent and count, and the built-in containers' counts. */
export function treePrint(folders: readonly RemoteFolder[], counts: ReadonlyMap<ContainerKey, number>): string {
  const parts = folders.map((f) => `${f.id}\u0000${f.name}\u0000${f.parentId ?? ''}\u0000${f.documentCount}`);
  for (const [key, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (key !== DAILY_NOTES) parts.push(`${key}=${n}`);
  return parts.join('\u0001');
}

export class ListingMemo {
  private static readonly byJournal = new WeakMap<Journal, CompleteListing>();

  static get(journal: Journal): CompleteListing | undefined {
    const memo = ListingMemo.byJournal.get(journal);
    if (memo && memo.dataVersion !== journal.dataVersion()) {
      ListingMemo.byJournal.delete(journal);
      return undefined;
    }
    return memo;
  }

  static remember(journal: Journal, listing: Omit<CompleteListing, 'dataVersion'>): void {
    ListingMemo.byJournal.set(journal, { ...listing, dataVersion: journal.dataVersion() });
  }

  /** A poll found nothing changed since: the listing holds as of `takenAt`. */
  static confirm(journal: Journal, takenAt: string): void {
    const memo = ListingMemo.byJournal.get(journal);
    if (memo) memo.takenAt = takenAt;
  }

  static forget(journal: Journal): void {
    ListingMemo.byJournal.delete(journal);
  }
}

/**
 * The layout of the last cycle that applied all of it, per journal. When the next cycle's input is
 * the same (every placed document's title, place and creation time, every folder's name and
 * parent) and every record and folder is still at the path it was given, planning it again would
 * move nothing: an idle poll skips planning and applying it (and the stat of every directory).
 */
interface Applied {
  documents: ReadonlyMap<string, LayoutDocument>;
  folders: ReadonlyMap<string, RemoteFolder>;
  layout: Layout;
}

const sameDocument = (a: LayoutDocument, b: LayoutDocument) =>
  a.title === b.title &&
  a.location === b.location &&
  (a.folderId ?? null) === (b.folderId ?? null) &&
  (a.dailyNoteDate ?? null) === (b.dailyNoteDate ?? null) &&
  (a.createdAt ?? null) === (b.createdAt ?? null);

export class LayoutMemo {
  private static readonly byJournal = new WeakMap<Journal, Applied>();

  /** Remembers a layout the cycle applied whole (nothing unsettled, blocked, ignored or recovered). */
  static remember(journal: Journal, documents: readonly LayoutDocument[], folders: readonly RemoteFolder[], layout: Layout): void {
    LayoutMemo.byJournal.set(journal, { documents: new Map(documents.map((d) => [d.id, d])), folders: new Map(folders.map((f) => [f.id, f])), layout });
  }

  static forget(journal: Journal): void {
    LayoutMemo.byJournal.delete(journal);
  }

  /**
   * True when planning `documents` and `folders` again would give every record and folder the path
   * it has. `documents` is gone through once, and need not be an array (an idle poll does not build one).
   */
  static unchanged(
    journal: Journal,
    documents: Iterable<LayoutDocument>,
    folders: readonly RemoteFolder[],
    records: readonly DocumentRecord[],
    folderRecords: readonly FolderRecord[],
  ): boolean {
    const last = LayoutMemo.byJournal.get(journal);
    if (!last || folders.length !== last.folders.size || records.length !== last.documents.size || folderRecords.length !== folders.length) return false;
    for (const f of folders) {
      const was = last.folders.get(f.id);
      if (!was || was.name !== f.name || was.parentId !== f.parentId || was.documentCount !== f.documentCount) return false;
    }
    for (const f of folderRecords) if (last.layout.folders.get(f.id) !== f.path) return false;
    let count = 0;
    for (const d of documents) {
      const was = last.documents.get(d.id);
      if (!was || !sameDocument(was, d)) return false;
      count++;
    }
    if (count !== last.documents.size) return false;
    for (const r of records) if (last.layout.documents.get(r.id) !== r.path) return false;
    return true;
  }
}
