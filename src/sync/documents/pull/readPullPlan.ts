// Reads what the pull's plan is decided from (one listing, the journal, the files changed here,
// what is on disk where a file was found moved) and asks core/pull/planPull for it. The cycle runs
// the plan; `sync --dry-run` and `plan` print it: both get it from here, so they cannot differ.
import { BUILTIN_DIRS, planLayout, type Layout, type LayoutDocument } from '../../../core/pull/layout.js';
import { planPull } from '../../../core/pull/planPull.js';
import { checkPullSafety, type SafetyRefusal } from '../../../core/push/safety.js';
import type { LocalChange, PullPlan } from '../../../core/pull/PullPlan.js';
import type { DocumentRecord, FolderRecord } from '../../../journal/index.js';
import { linksHolding, readMirrorFile } from '../../../mirror/index.js';
import { type SyncContext, isDirectory, releaseMemory, deletesApproved, readApprovals, readHeldBack, useApprovals } from '../../context/index.js';
import { detectLocalChanges } from './detectLocalChanges.js';
import { listRemote, type RemoteSnapshot } from './listRemote.js';
import type { RecentListing } from './listRecent.js';
import { LayoutMemo } from './pullMemos.js';
import { resolveIntents } from '../push/resolveIntents.js';

export interface PullReading {
  snapshot: RemoteSnapshot;
  /** The journal's documents before the plan runs. */
  records: DocumentRecord[];
  /** Set when a safety check refuses the pull: nothing else is read, and `plan` is null. */
  refused: SafetyRefusal | null;
  /** Files changed here, as detected (those found moved included). */
  local: Map<string, LocalChange>;
  layout: Layout | null;
  /** The layout's input (null when refused, and when quiet). */
  layoutInput: LayoutDocument[] | null;
  /**
   * A poll whose listing places every document where the last layout applied whole put it, with no
   * file changed here: nothing to lay out, so the layout is not planned again (each record's path
   * is its place) and the cycle skips applying it.
   */
  quiet: boolean;
  plan: PullPlan | null;
}

export interface ReadPullOptions {
  fullScan?: boolean;
  /** Only these documents' files are checked for local changes; all when omitted. */
  localCandidates?: readonly DocumentRecord[];
  /**
   * The cycle (never the dry run, which writes nothing) first adopts a create the push sent without
   * an answer (a reset after the service applied it): otherwise the plan would take the document
   * for one of the service's own, at the very path of the file it came from.
   */
  adoptCreates?: boolean;
  /** The poll's look at the recent changes (listRecent): the full listing is not asked when it tells everything. */
  recent?: RecentListing | null;
}

/** The layout's input: every placed document, and known ones no listing placed this time where they were. */
export function layoutDocuments(snapshot: RemoteSnapshot, known: ReadonlyMap<string, DocumentRecord>): LayoutDocument[] {
  return [...eachLayoutDocument(snapshot, known)];
}

function pathsOf(records: readonly DocumentRecord[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const r of records) paths.set(r.id, r.path);
  return paths;
}

/** The layout's input, one document at a time. */
function* eachLayoutDocument(snapshot: RemoteSnapshot, known: ReadonlyMap<string, DocumentRecord>): Generator<LayoutDocument> {
  for (const [id, remote] of snapshot.documents) {
    const p = snapshot.placements.get(id) ?? known.get(id);
    if (!p) continue;
    yield { id, title: remote.title, location: p.location, folderId: p.folderId, dailyNoteDate: p.dailyNoteDate, createdAt: remote.createdAt };
  }
}

/**
 * Paths at or under a symbolic link: the links the push held back, and any folder of the journal
 * (or built-in location) that is one now (each checked once per cycle that lays out).
 */
function heldByLinks(ctx: SyncContext, folders: readonly FolderRecord[]): (path: string) => boolean {
  const links = new Set(readHeldBack(ctx.journal).flatMap((h) => (h.reason === 'symlink' ? [h.path] : [])));
  for (const link of linksHolding(ctx.root, [...Object.values(BUILTIN_DIRS), ...folders.map((f) => f.path)])) links.add(link);
  if (links.size === 0) return () => false;
  return (p) => {
    for (let at = p; ; at = at.slice(0, at.lastIndexOf('/'))) {
      if (links.has(at)) return true;
      if (!at.includes('/')) return false;
    }
  };
}

export async function readPullPlan(ctx: SyncContext, opts: ReadPullOptions = {}): Promise<PullReading> {
  const recent = opts.recent ?? null;
  const snapshot = await listRemote(
    ctx,
    recent === null
      ? { fullScan: opts.fullScan === true }
      : { takenAt: recent.takenAt, folders: recent.folders, ...(recent.kind === 'other' ? {} : { documents: recent.documents }) },
  );
  if (opts.adoptCreates) {
    const creates = ctx.journal.pendingIntents().filter((i) => i.docId === null);
    if (creates.length > 0) await resolveIntents(ctx, creates, snapshot.documents);
  }
  const records = ctx.journal.listDocuments();
  const gone = records.filter((r) => !snapshot.documents.has(r.id));
  const refused = checkPullSafety({
    known: records.length,
    listed: snapshot.documents.size,
    purged: gone.length,
    maxDeletePercent: ctx.settings.maxDeletePercent,
    force: ctx.settings.force,
  });
  if (refused) {
    refused.deletes = gone.map((r) => r.path).sort();
    // Exactly these deletes, approved by the person (`spacesync approve --deletes`): the pull goes ahead, once.
    if (deletesApproved(readApprovals(ctx.journal), refused.reason, refused.deletes)) {
      if (!ctx.readOnly) useApprovals(ctx.journal, { deletes: true });
    } else return { snapshot, records, refused, local: new Map(), layout: null, layoutInput: null, quiet: false, plan: null };
  }
  const local = await detectLocalChanges(ctx, opts.localCandidates);
  // The listing's parse and the look at every file are garbage now: collected before the layout
  // builds its own (beside 50,000 documents the cycle's peak is where both would meet).
  releaseMemory();
  const byId = new Map(records.map((r) => [r.id, r]));
  const folderRecords = ctx.journal.listFolders();
  const quiet =
    opts.localCandidates !== undefined &&
    local.size === 0 &&
    snapshot.unplaced.length === 0 &&
    LayoutMemo.unchanged(ctx.journal, eachLayoutDocument(snapshot, byId), snapshot.folders, records, folderRecords);
  // A quiet poll lays nothing out: its input is not built.
  const layoutInput = quiet ? null : layoutDocuments(snapshot, byId);
  const layout: Layout = quiet
    ? { documents: pathsOf(records), folders: new Map(folderRecords.map((f) => [f.id, f.path])) }
    : planLayout({ documents: layoutInput!, folders: snapshot.folders });
  // A file missing where it was recorded may be found, unchanged, where the layout puts it.
  const found = new Set<string>();
  for (const [id, change] of local) {
    const rec = byId.get(id)!;
    const target = layout.documents.get(id);
    if (change !== 'missing' || target === undefined || target === rec.path) continue;
    const there = await readMirrorFile(ctx.root, target);
    if (there && there.hash === rec.fileHash) found.add(id);
  }
  const missingDirs: string[] = [];
  if (!quiet) for (const dir of Object.values(BUILTIN_DIRS)) if (!(await isDirectory(ctx.root, dir))) missingDirs.push(dir);
  const held = quiet ? () => false : heldByLinks(ctx, folderRecords);
  const backup = ctx.settings.mode === 'backup';
  const plan = planPull({ listing: snapshot, records, folderRecords, local, found, layout, ignored: (p) => ctx.ignore(p), held, missingDirs, backup });
  return { snapshot, records, refused: null, local, layout, layoutInput, quiet, plan };
}
