// Documents moved or renamed, on either side: the relative links to them in the other files (and the
// links of a moved file, relative to its own folder) follow, in the file and in base alike
// (core/links/relinkFile). A local-only rewrite: the space's `block://` links did not change, so nothing is
// sent. A file is rewritten only while it holds what the sync last wrote or read, through the same
// guarded write as a pull (own writes noted, so the watcher does not take it for an edit); a file
// being edited keeps its links, is tried again after each later cycle, and meanwhile its links to
// the old paths are still read as the documents they named (`FORMER_PATHS`).
import { relinkBase, relinkFile } from '../../core/links/relinkFile.js';
import { linkOnTheWay, readMirrorFile, writeFileIfUnchanged } from '../../mirror/index.js';
import { FORMER_PATHS, notedMoves, RELINK_PENDING, RELINK_PENDING_FROM, type SyncContext } from '../context/index.js';

/** How many former paths are remembered (the oldest go first). */
const KEPT_PATHS = 500;

/**
 * Rewrites the links the noted moves made stale (and those of files left pending by earlier runs);
 * returns the files rewritten. The moves are read from the journal, so a run killed between a move
 * and its relink leaves them for the next run.
 */
export async function relinkDocuments(ctx: SyncContext): Promise<string[]> {
  const { journal } = ctx;
  if (ctx.readOnly) return [];
  const pending = journal.getState<string[]>(RELINK_PENDING) ?? [];
  if (!journal.hasPendingMoves() && pending.length === 0) return [];
  // A moved file left pending keeps the path its own links are written from: the noted moves go below.
  const pendingFrom = journal.getState<Record<string, string>>(RELINK_PENDING_FROM) ?? {};
  // A file the pull (or a push) moved to another folder took its .assets folders along first (the media step the cycle runs before this one).
  const { moves, steps, ownFrom, seq } = notedMoves(journal);
  const former = new Map(Object.entries(journal.getState<Record<string, string>>(FORMER_PATHS) ?? {}));
  for (const m of steps) {
    former.delete(m.to);
    former.delete(m.from);
    former.set(m.from, m.to);
    // A path moved on again: every older name of it follows.
    for (const [k, v] of former) if (v === m.from) former.set(k, m.to);
  }
  const movedNow = new Map(moves.map((m) => [m.from, m.to]));
  // A document moved more than once: every name it had since its links were written leads to where it is.
  for (const m of steps) {
    const now = journal.getDocument(m.id)?.path;
    if (now !== undefined && m.from !== now) movedNow.set(m.from, now);
  }
  const candidates = new Set([...(moves.length > 0 ? journal.documentsWithLinks().keys() : []), ...pending]);
  const isDocument = (p: string) => journal.getDocumentByPath(p) !== undefined;
  const stillPending: string[] = [];
  const stillFrom: Record<string, string> = {};
  const leave = (id: string, from: string, path: string) => {
    stillPending.push(id);
    if (from !== path) stillFrom[id] = from;
  };
  const written: string[] = [];
  for (const id of candidates) {
    const rec = journal.getDocument(id);
    if (!rec || rec.fileHash === null) continue;
    const from = pendingFrom[id] ?? ownFrom.get(id) ?? rec.path;
    const base = journal.getBaseBlocks(id);
    // What moved now, and for a file tried again, every move since it was left.
    const moved = pending.includes(id) ? former : movedNow;
    const next = relinkBase(base, from, rec.path, moved, isDocument);
    if (next === base) continue;
    // Under a symbolic link (a folder replaced by one): neither read nor written through it; it waits.
    const file = linkOnTheWay(ctx.root, rec.path) === null ? await readMirrorFile(ctx.root, rec.path) : null;
    if (!file || file.text === null || file.hash !== rec.fileHash) {
      leave(id, from, rec.path);
      continue;
    }
    const text = relinkFile(file.text, base, next, from, rec.path, moved, isDocument);
    if (text === null) {
      // Not rewritable in place now: tried again after the next cycle, its old links still read meanwhile.
      leave(id, from, rec.path);
      continue;
    }
    const w = await writeFileIfUnchanged(ctx.root, rec.path, text, file.hash, { ownWrites: ctx.ownWrites });
    if (!w.written) {
      leave(id, from, rec.path);
      continue;
    }
    journal.transaction(() => {
      journal.replaceBaseBlocks(id, next);
      journal.setFileHash(id, w.hash);
      if (ownFrom.has(id)) journal.markOwnLinksFollowed(id, seq);
    });
    written.push(rec.path);
    ctx.logger.info({ doc: id, path: rec.path }, 'links relinked');
  }
  journal.transaction(() => {
    journal.clearMoves(seq);
    journal.setState(FORMER_PATHS, Object.fromEntries([...former].slice(-KEPT_PATHS)));
    if (stillPending.length > 0) journal.setState(RELINK_PENDING, stillPending);
    else if (pending.length > 0) journal.deleteState(RELINK_PENDING);
    if (Object.keys(stillFrom).length > 0) journal.setState(RELINK_PENDING_FROM, stillFrom);
    else if (Object.keys(pendingFrom).length > 0) journal.deleteState(RELINK_PENDING_FROM);
  });
  return written;
}
