// The last complete listing of the space whose changes the pull applied all of, per journal: every
// document as listed (id, title, lastModifiedAt, createdAt), the folder tree with its counts, and
// when it was taken. A poll compares the service's recent changes with it (listRecent) instead of
// listing every document again. Kept in memory by the process that made it (the daemon); a cycle
// forgets it before it changes anything and remembers the new one only when it settled everything.
import type { Journal } from '../../../journal/index.js';
import { DAILY_NOTES, type ContainerKey, type RemoteDocument, type RemoteFolder } from '../../../core/remoteTypes.js';

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
