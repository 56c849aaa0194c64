// The layout of the last cycle that applied all of it, per journal. When the next cycle's input is
// the same (every placed document's title, place and creation time, every folder's name and
// parent) and every record and folder is still at the path it was given, planning it again would
// move nothing: an idle poll skips planning and applying it (and the stat of every directory).
import type { DocumentRecord, FolderRecord, Journal } from '../../../journal/index.js';
import type { Layout, LayoutDocument } from '../../../core/pull/layout.js';
import type { RemoteFolder } from '../../../core/remoteTypes.js';

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
