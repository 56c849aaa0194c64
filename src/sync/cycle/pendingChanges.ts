// What the next cycle would find, read from disk and the journal without asking the service:
// files that changed by core/files/localChange's rule (the push's and the pull's: by hash, never mtime),
// and documents whose entry in the last listing differs from the base (so the listing is as fresh
// as the last cycle).
import { remoteChangeOf } from '../../core/pull/detectRemoteChanges.js';
import { changeOfRecordedFile, goneAreDeleted, pairMoved, readingOf, type FileReading } from '../../core/files/localChange.js';
import type { DocumentRecord, Journal } from '../../journal/index.js';
import { createIgnore, linksHolding, readMirrorFile, scanMirror } from '../../mirror/index.js';
import { INBOX_FILE, isInTasksDir, LOGBOOK_FILE } from '../../core/tasks/taskFiles.js';
import { readTaskFilesState } from '../tasks/index.js';

export interface LocalPendingChange {
  path: string;
  /** `edited`: bytes differ; `new`: no document at this path; `missing`: the file is gone; `moved`: a file names a missing document's id. */
  change: 'edited' | 'new' | 'missing' | 'moved';
  /** For `moved`: where the document's file was. */
  from?: string;
  docId?: string;
}

export interface RemotePendingChange {
  id: string;
  title: string;
  /** Its file, when the journal knows one. */
  path?: string;
  /** `changed`: its lastModifiedAt or title moved; `new`: not pulled yet; `removed`: listed no more (purged). */
  change: 'changed' | 'new' | 'removed';
}

export interface PendingLocalScan {
  changes: LocalPendingChange[];
  /** Files in the folder that are not documents (never synced). */
  otherFiles: number;
  /** Symbolic links in the mirror: never followed nor synced. */
  links: string[];
  /** Their paths, by path. */
  otherPaths: string[];
  /** The folders scanned (not the ignored ones, `.assets` folders among them), by path. */
  dirs: string[];
}

export async function findLocalChanges(root: string, journal: Journal | undefined, ignorePatterns: readonly string[]): Promise<PendingLocalScan> {
  const scan = await scanMirror(root, createIgnore(ignorePatterns));
  const records = journal?.listDocuments() ?? [];
  const byPath = new Map(records.map((r) => [r.path, r]));
  const byId = new Map(records.map((r) => [r.id, r]));
  const known = new Set(byId.keys());
  const present = new Set(scan.files.map((f) => f.relPath));
  const read = async (p: string, baseHash: string | null): Promise<FileReading> => {
    const file = await readMirrorFile(root, p);
    return file === null ? null : readingOf(file.hash, file.text, baseHash, `"${p}"`);
  };
  const changes: LocalPendingChange[] = [];
  const gone = new Map<string, DocumentRecord>();
  // Files that are no recorded document's, with the id each names (none when it cannot be read).
  const strangers: Array<{ path: string; claim: string | undefined }> = [];
  const underLink = (p: string) => scan.links.some((l) => p === l || p.startsWith(`${l}/`));
  for (const r of records) {
    // Under a symbolic link: held back (never read through), not deleted.
    if (underLink(r.path)) continue;
    const reading = present.has(r.path) ? await read(r.path, r.fileHash) : null;
    const change = changeOfRecordedFile(r, reading, (id) => known.has(id));
    // A file held back or whose front matter is broken differs from the base all the same.
    if (change === 'edited' || change === 'heldBack' || change === 'unparsable') changes.push({ path: r.path, change: 'edited', docId: r.id });
    else if (change === 'missing') gone.set(r.id, r);
    else if (change === 'elsewhere') {
      gone.set(r.id, r);
      strangers.push({ path: r.path, claim: reading && !reading.undecodable ? reading.claim : undefined });
    }
  }
  let unreadable = 0;
  // The task files are no documents: each is edited when its bytes differ from those last synced.
  const tasks = journal ? readTaskFilesState(journal) : null;
  for (const [p, hash] of [
    [INBOX_FILE, tasks?.inboxHash],
    [LOGBOOK_FILE, tasks?.logbookHash],
  ] as const) {
    const file = present.has(p) && !byPath.has(p) ? await readMirrorFile(root, p) : null;
    if (file && hash !== undefined && file.hash !== hash) changes.push({ path: p, change: 'edited' });
  }
  for (const f of scan.files) {
    if (byPath.has(f.relPath) || isInTasksDir(f.relPath)) continue;
    const reading = await read(f.relPath, null);
    if (reading?.undecodable) unreadable++;
    // Naming a document held under a link: neither new nor its move until the folder is back.
    const claim = reading && !reading.undecodable && reading.frontMatterOk ? reading.claim : undefined;
    const owner = claim === undefined ? undefined : byId.get(claim);
    if (owner && underLink(owner.path)) continue;
    strangers.push({ path: f.relPath, claim });
  }
  const pairs = pairMoved(gone, strangers, (f) => f.claim);
  for (const { id, file } of pairs.moved) {
    changes.push({ path: file.path, change: 'moved', from: gone.get(id)!.path, docId: id });
    gone.delete(id);
  }
  for (const f of pairs.added) changes.push({ path: f.path, change: 'new' });
  // A file gone may have been moved under a folder of the space replaced by a link: not deleted either.
  const links =
    journal && gone.size > 0
      ? linksHolding(
          root,
          journal.listFolders().map((f) => f.path),
        )
      : [];
  if (goneAreDeleted(gone.size, unreadable + links.length)) for (const r of gone.values()) changes.push({ path: r.path, change: 'missing', docId: r.id });
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, otherFiles: scan.skipped.length, otherPaths: scan.skipped, links: scan.links, dirs: scan.dirs };
}

export function findRemoteChanges(journal: Journal | undefined): { listedAt: string | null; changes: RemotePendingChange[] } {
  const listing = journal?.readListing();
  if (!journal || !listing) return { listedAt: null, changes: [] };
  const records = new Map(journal.listDocuments().map((r) => [r.id, r]));
  const changes: RemotePendingChange[] = [];
  for (const [id, entry] of listing.items) {
    const r = records.get(id);
    const change = remoteChangeOf(r, entry);
    if (change) changes.push({ id, title: entry.title, ...(r ? { path: r.path } : {}), change });
  }
  for (const r of records.values()) {
    if (!listing.items.has(r.id)) changes.push({ id: r.id, title: r.title, path: r.path, change: 'removed' });
  }
  const key = (c: RemotePendingChange) => c.path ?? c.title;
  changes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return { listedAt: listing.takenAt, changes };
}
