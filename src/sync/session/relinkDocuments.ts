// Documents moved or renamed, on either side: the relative links to them in the other files (and the
// links of a moved file, relative to its own folder) follow, in the file and in base alike
// (core/relinkFile). A local-only rewrite: the space's `block://` links did not change, so nothing is
// sent. A file is rewritten only while it holds what the sync last wrote or read, through the same
// guarded write as a pull (own writes noted, so the watcher does not take it for an edit); a file
// being edited keeps its links, is tried again after each later cycle, and meanwhile its links to
// the old paths are still read as the documents they named (`FORMER_PATHS`).
import { relinkBase, relinkFile } from '../../core/relinkFile.js';
import { readMirrorFile, writeFileIfUnchanged } from '../../mirror/index.js';
import { FORMER_PATHS, RELINK_PENDING } from './linkTargetsOf.js';
import type { SyncContext } from './SyncContext.js';

/** How many former paths are remembered (the oldest go first). */
const KEPT_PATHS = 500;

export interface Move {
  id: string;
  from: string;
  to: string;
}

/** Rewrites the links the moves made stale; returns the files rewritten. */
export async function relinkDocuments(ctx: SyncContext, moves: readonly Move[]): Promise<string[]> {
  const { journal } = ctx;
  const pending = journal.getState<string[]>(RELINK_PENDING) ?? [];
  if (ctx.readOnly || (moves.length === 0 && pending.length === 0)) return [];
  const former = new Map(Object.entries(journal.getState<Record<string, string>>(FORMER_PATHS) ?? {}));
  for (const m of moves) {
    former.delete(m.to);
    former.delete(m.from);
    former.set(m.from, m.to);
    // A path moved on again: every older name of it follows.
    for (const [k, v] of former) if (v === m.from) former.set(k, m.to);
  }
  const movedNow = new Map(moves.map((m) => [m.from, m.to]));
  const ownMove = new Map(moves.map((m) => [m.id, m.from]));
  const candidates = new Set([...(moves.length > 0 ? journal.documentsWithLinks().keys() : []), ...pending]);
  const isDocument = (p: string) => journal.getDocumentByPath(p) !== undefined;
  const stillPending: string[] = [];
  const written: string[] = [];
  for (const id of candidates) {
    const rec = journal.getDocument(id);
    if (!rec || rec.fileHash === null) continue;
    const from = ownMove.get(id) ?? rec.path;
    const base = journal.getBaseBlocks(id);
    // What moved now, and for a file tried again, every move since it was left.
    const moved = pending.includes(id) ? former : movedNow;
    const next = relinkBase(base, from, rec.path, moved, isDocument);
    if (next === base) continue;
    const file = await readMirrorFile(ctx.root, rec.path);
    if (!file || file.text === null || file.hash !== rec.fileHash) {
      stillPending.push(id);
      continue;
    }
    const text = relinkFile(file.text, base, next, from, rec.path, moved, isDocument);
    if (text === null) continue;
    const w = await writeFileIfUnchanged(ctx.root, rec.path, text, file.hash, { ownWrites: ctx.ownWrites });
    if (!w.written) {
      stillPending.push(id);
      continue;
    }
    journal.transaction(() => {
      journal.replaceBaseBlocks(id, next);
      journal.setFileHash(id, w.hash);
    });
    written.push(rec.path);
    ctx.logger.info({ doc: id, path: rec.path }, 'links relinked');
  }
  journal.transaction(() => {
    journal.setState(FORMER_PATHS, Object.fromEntries([...former].slice(-KEPT_PATHS)));
    if (stillPending.length > 0) journal.setState(RELINK_PENDING, stillPending);
    else if (pending.length > 0) journal.deleteState(RELINK_PENDING);
  });
  return written;
}
