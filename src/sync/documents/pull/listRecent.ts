// A poll's look at the space when the last complete listing is recent (ListingMemo): only the
// documents modified since yesterday (`GET /documents?fetchMetadata=true&lastModifiedDateGte=yesterday`,
// "yesterday" in the space's own time zone, by the service's clock) and the folder tree — two
// requests, whatever the size of the space. A document's lastModifiedAt moves when any of its blocks
// (its title included) changes, so a change since a listing younger than RECENT_WINDOW_MS is in
// the filtered listing; a document created, trashed, restored, purged or moved changes a
// container's count. So: the same tree and only known documents, unchanged → nothing changed; the
// same tree and only known documents, some changed → those are the changes; anything else (an
// unknown document, a count, a folder's name or place) → the full listing is needed. Moves that
// keep every count are found by the periodic full scan, as without this look.
import type { Folder } from '../../../wire/types.js';
import type { SyncContext } from '../../context/index.js';
import { flattenFolders } from '../../../core/pull/flattenFolders.js';
import { DAILY_NOTES, type RemoteDocument } from '../../../core/remoteTypes.js';
import { ListingMemo, treePrint } from './pullMemos.js';
import { readCounts, readFullScanAt } from './pullState.js';
import { toRemote } from './listRemote.js';

/**
 * How old the last complete listing may be. "Yesterday" starts at least 23 hours before now (a
 * day that skips an hour for summer time); 3 more are left for the service's clock and ours to differ.
 */
export const RECENT_WINDOW_MS = 20 * 3_600_000;

export type RecentListing =
  /** Nothing changed since the last complete listing: `documents` is it. */
  | { kind: 'same'; takenAt: string; documents: ReadonlyMap<string, RemoteDocument>; folders: Folder[] }
  /** Only known documents' titles or times changed: `documents` is the last listing with them. */
  | { kind: 'changed'; takenAt: string; documents: Map<string, RemoteDocument>; folders: Folder[]; changed: string[] }
  /** Something else changed: the full listing is needed (the tree is read already). */
  | { kind: 'other'; takenAt: string; folders: Folder[] };

/** Null when no recent complete listing is known, a full scan is due, or a create waits for its answer: list everything. */
export async function listRecent(ctx: SyncContext): Promise<RecentListing | null> {
  const { journal, client } = ctx;
  const memo = ListingMemo.get(journal);
  if (!memo) return null;
  const now = ctx.now().getTime();
  if (now - Date.parse(memo.takenAt) >= RECENT_WINDOW_MS) return null;
  const previous = readCounts(journal);
  const lastFull = readFullScanAt(journal);
  if (previous === null || lastFull === null || now - Date.parse(lastFull) >= ctx.settings.fullScanMinutes * 60_000) return null;
  // A create sent without an answer is adopted from the full listing (runPull).
  if (journal.pendingIntents().some((i) => i.docId === null)) return null;

  const takenAt = ctx.now().toISOString();
  const [recent, tree] = await Promise.all([
    client.listDocuments({ fetchMetadata: true, lastModifiedDateGte: 'yesterday' }, { priority: 'poll' }),
    client.listFolders({ priority: 'poll' }),
  ]);
  const other: RecentListing = { kind: 'other', takenAt, folders: tree.items };
  const { folders, counts } = flattenFolders(tree.items);
  if (treePrint(folders, counts) !== memo.tree) return other;
  // The counts the pull recorded are the tree's (a push that moved a document shifts them).
  let inFolders = 0;
  for (const [key, n] of counts) {
    if (previous.get(key) !== n) return other;
    inFolders += n;
  }
  if (previous.size !== counts.size + 1 || previous.get(DAILY_NOTES) !== Math.max(0, memo.documents.size - inFolders)) return other;

  let changed: Map<string, RemoteDocument> | undefined;
  const seen = new Set<string>();
  for (const item of recent.items) {
    const was = memo.documents.get(item.id);
    if (!was) return other;
    if (seen.has(item.id)) continue; // a repeated id counts once, where first listed (as listRemote takes it)
    seen.add(item.id);
    const now = toRemote(item);
    if (was.title === now.title && was.lastModifiedAt === now.lastModifiedAt) continue;
    (changed ??= new Map()).set(item.id, now);
  }
  if (!changed) return { kind: 'same', takenAt, documents: memo.documents, folders: tree.items };
  const documents = new Map(memo.documents);
  for (const [id, d] of changed) documents.set(id, d);
  return { kind: 'changed', takenAt, documents, folders: tree.items, changed: [...changed.keys()] };
}
