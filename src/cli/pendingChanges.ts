// What the next cycle would find, read from disk and the journal without asking the service:
// files whose bytes differ from the journal's (by hash, never mtime), and documents whose entry
// in the last listing differs from the base (so the listing is as fresh as the last cycle).
import { remoteChangeOf } from '../core/detectRemoteChanges.js';
import { frontMatter } from '../dialect/index.js';
import type { DocumentRecord, Journal } from '../journal/index.js';
import { createIgnore, readMirrorFile, scanMirror } from '../mirror/index.js';

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
}

export async function findLocalChanges(root: string, journal: Journal | undefined, ignorePatterns: readonly string[]): Promise<PendingLocalScan> {
  const scan = await scanMirror(root, createIgnore(ignorePatterns));
  const records = journal?.listDocuments() ?? [];
  const byPath = new Map(records.map((r) => [r.path, r]));
  const seen = new Set<string>();
  const changes: LocalPendingChange[] = [];
  const fresh: string[] = [];
  for (const f of scan.files) {
    const r = byPath.get(f.relPath);
    if (!r) {
      fresh.push(f.relPath);
      continue;
    }
    seen.add(r.id);
    if (r.fileHash === null) continue; // recorded but never written: the pull's business
    const file = await readMirrorFile(root, f.relPath);
    if (file && file.hash !== r.fileHash) changes.push({ path: f.relPath, change: 'edited', docId: r.id });
  }
  const missing = new Map<string, DocumentRecord>(records.filter((r) => !seen.has(r.id) && r.fileHash !== null).map((r) => [r.id, r]));
  for (const p of fresh) {
    const file = await readMirrorFile(root, p);
    const id = file?.text ? frontMatter(file.text)?.data?.id : undefined;
    const was = typeof id === 'string' ? missing.get(id) : undefined;
    if (was) {
      missing.delete(was.id);
      changes.push({ path: p, change: 'moved', from: was.path, docId: was.id });
    } else {
      changes.push({ path: p, change: 'new' });
    }
  }
  for (const r of missing.values()) changes.push({ path: r.path, change: 'missing', docId: r.id });
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { changes, otherFiles: scan.skipped.length };
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
