// Plans the push of what changed locally: the core decides per folder (decideFolders) and per
// document (decideDocument) by base / local / remote, merges the files whose documents the service
// changed too (their blocks are read: the only requests a plan makes besides the listing),
// planSync turns it all into the fewest requests, and checkSafety may refuse. Nothing is written.
import { decideDocument, type BaseSide, type DocumentDecision, type LocalSide, type RemoteSide } from '../../../core/push/decideDocument.js';
import { decideFolders } from '../../../core/push/decideFolders.js';
import { docLinkRef, docRef, planSync } from '../../../core/push/plan.js';
import { checkDocumentWipe, checkSafety } from '../../../core/push/safety.js';
import { isSpacesyncError } from '../../../errors.js';
import type { DocumentRecord, ListingEntry } from '../../../journal/index.js';
import type { SyncContext } from '../../context/index.js';
import { fetchRemoteDocument, type RemoteDocumentState } from './fetchRemoteDocument.js';
import { holdsBase } from '../../../core/merge/hashBlock.js';
import { localTitle } from '../../../core/files/localTitle.js';
import { mergeFile } from '../../../core/merge/mergeFile.js';
import { confirmSentEdits } from '../../../core/push/confirmSentEdits.js';
import { confirmSentInserts } from '../../../core/push/confirmSentInserts.js';
import { formerPathsOf, linkTargetsOf, ownMarkersOf } from '../../context/index.js';
import { noteReadOnlyBlocks, readOnlyBlocks } from '../readOnlyBlocks.js';
import { placementOfPath } from '../../../core/files/placementOfPath.js';
import { linkMarkdown, type Anchor } from '../../../core/links/linkDocuments.js';
import { carriesMarker } from '../../../core/links/carriesMarker.js';
import { withMarker } from '../../../dialect/index.js';
import { uploadDialect } from '../../context/index.js';
import type { DocumentTask, PushPlan } from './PushPlan.js';
import { claimedId, type LocalDocument } from './readLocalDocument.js';
import type { Placement } from '../../../core/remoteTypes.js';
import type { LocalScan } from './scanLocal.js';
import { sendableChanges } from './sendableChanges.js';
import { sentEdits, sentInserts } from './sentByIntents.js';
import { withRestoredFields } from '../../../core/versions/withRestoredFields.js';
import { restoredBlocks } from '../../context/index.js';

export interface PlanPushInput {
  scan: LocalScan;
  /** Every document the space lists now. */
  listing: ReadonlyMap<string, ListingEntry>;
  /** Where the space holds each document, and its folders, when a full listing was taken. */
  placements?: ReadonlyMap<string, Placement>;
  remoteFolders?: ReadonlyArray<{ id: string; name: string; parentId: string | null }>;
  /** Documents to read again and merge (an earlier run's requests were not recorded), with those intents. */
  forced: ReadonlyMap<string, number[]>;
  pendingIntents: number;
  /** The scan covered the whole mirror (folders are decided, the empty-mirror check applies). */
  fullScan: boolean;
}

const placementOf = (r: DocumentRecord): Placement => ({ location: r.location, folderId: r.folderId, dailyNoteDate: r.dailyNoteDate });
const TRASH: Placement = { location: 'trash', folderId: null, dailyNoteDate: null };

export async function planPush(ctx: SyncContext, input: PlanPushInput): Promise<PushPlan> {
  const { journal } = ctx;
  const readsBefore = ctx.client.stats().total;
  const { scan, listing, forced } = input;
  // The pending intents of the documents merged again (read once: their payloads say what was sent).
  const pending = forced.size > 0 ? journal.pendingIntents() : [];
  const plan: PushPlan = {
    refused: null,
    heldBack: [...scan.heldBack],
    steps: [],
    tasks: [],
    folders: null,
    problems: [...scan.problems],
    pendingIntents: input.pendingIntents,
    reads: 0,
  };
  const records = journal.listDocuments();
  // A file moved here names its document from where it is now, also before the push records it.
  // So does a new file once this plan creates its document (its ref, which the send makes its id).
  const localIds = new Map(scan.changed.filter((c) => c.local.path !== c.record.path).map((c) => [c.local.path, c.record.id]));
  // A typed link to a block (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals`) names it by its document's base.
  const anchors = new Map<string, Anchor>();
  // …or, for a block the base lacks, from the service's blocks this plan read to merge its document.
  const targets = linkTargetsOf(journal, localIds, { typed: anchors, read: (doc) => plan.tasks.find((t) => t.doc === doc)?.remote?.blocks });
  const byId = new Map(records.map((r) => [r.id, r]));
  const withFiles = records.filter((r) => r.fileHash !== null);
  for (const d of scan.strayDirs)
    plan.problems.push({
      path: d,
      message: `The folder "${d}" is inside a built-in folder (Unsorted, Templates, Trash, Daily Notes), where the space has no folders; it and its files are not sent. Move it to the top of the mirror or into one of your folders.`,
    });

  // ── folders ──
  const folderRecords = journal.listFolders();
  let folderOfDir = new Map(folderRecords.map((f) => [f.path, f.id]));
  if (input.fullScan) {
    const localPath = new Map<string, string | undefined>(withFiles.map((r) => [r.id, r.path]));
    for (const c of scan.changed) localPath.set(c.record.id, c.local.path);
    for (const r of scan.missing) localPath.set(r.id, undefined);
    const documents: Array<{ id: string; basePath?: string; localPath?: string; remoteFolderId?: string | null }> = withFiles.map((r) => {
      const lp = localPath.get(r.id);
      return {
        id: r.id,
        basePath: r.path,
        ...(lp ? { localPath: lp } : {}),
        remoteFolderId: input.placements ? (input.placements.get(r.id)?.folderId ?? null) : r.folderId,
      };
    });
    for (const [id, p] of input.placements ?? []) if (!byId.has(id)) documents.push({ id, remoteFolderId: p.folderId });
    plan.folders = decideFolders({
      base: folderRecords,
      remote: input.remoteFolders ?? folderRecords,
      localDirs: scan.dirs,
      documents,
    });
    folderOfDir = plan.folders.folderOfDir;
    for (const p of plan.folders.problems) plan.problems.push({ path: '', message: p });
  }
  const folderPaths = new Map([...folderOfDir].map(([dir, id]) => [id, dir]));

  const remoteSide = (id: string, r: DocumentRecord | undefined): RemoteSide | undefined => {
    const entry = listing.get(id);
    if (!entry) return undefined;
    const p = input.placements?.get(id) ?? (r ? placementOf(r) : { location: 'unsorted', folderId: null, dailyNoteDate: null });
    const changed = !r || entry.lastModifiedAt !== r.remoteModifiedAt || forced.has(id);
    return { id, title: entry.title, ...p, changed };
  };
  const baseSide = (r: DocumentRecord): BaseSide => ({ id: r.id, path: r.path, title: r.title, ...placementOf(r) });

  const addTask = async (
    r: DocumentRecord | undefined,
    local: LocalDocument | null,
    decision: DocumentDecision,
    localPlace: Placement | null,
    remote: RemoteSide | undefined,
  ) => {
    for (const p of [...decision.problems, ...decision.conflicts]) plan.problems.push({ path: local?.path ?? r?.path ?? '', message: p });
    const claim = local ? claimedId(local) : undefined;
    // A file whose document the space purged is sent to a new document: it is not the old id's any more.
    const id = decision.create ? undefined : (r?.id ?? (decision.content === 'merge' && claim ? claim : undefined));
    const doc = id ?? docRef(local!.path);
    let base = r ? journal.getBaseBlocks(r.id) : [];
    let remoteState: RemoteDocumentState | null = null;
    let file = null;
    let uploads = false;
    if (decision.content === 'merge' && id !== undefined) {
      try {
        remoteState = await fetchRemoteDocument(ctx, id, base, listing.get(id)?.lastModifiedAt ?? null);
      } catch (e) {
        if (!isSpacesyncError(e, 'not_found')) throw e;
        // Gone between the listing and the read: decided again without the service's side.
        return addTask(
          r,
          local,
          decideDocument({ ...(r ? { base: baseSide(r) } : {}), ...(local && localPlace ? { local: localSide(local, localPlace, r) } : {}) }),
          localPlace,
          undefined,
        );
      }
    }
    // A push that went out unrecorded: the blocks it edited are based on what it sent, where the space holds that.
    if (remoteState && id !== undefined && forced.has(id)) {
      // What was sent linked other documents by id; the space's blocks here show them as the file does.
      const path = r?.path ?? local?.path;
      const shown = (markdown: string) => (path === undefined ? markdown : linkMarkdown(markdown, path, targets));
      // …and a block a file links to carries its marker, which was not sent.
      const kinds = new Map(base.map((b) => [b.id, b]));
      const marked = (id: string, markdown: string) => {
        const fragment = targets.anchorOf?.(id)?.fragment;
        const b = kinds.get(id);
        return fragment?.startsWith('^') && b && carriesMarker(b.kind, b.type, markdown) ? withMarker(markdown, fragment.slice(1)) : markdown;
      };
      const edits = new Map([...sentEdits(pending, forced.get(id)!)].map(([k, v]) => [k, marked(k, shown(v))]));
      base = confirmSentEdits(base, edits, remoteState.byId);
      base = confirmSentInserts(
        base,
        sentInserts(pending, forced.get(id)!).map((b) => ({ ...b, markdown: shown(b.markdown) })),
        remoteState.blocks,
      );
    }
    if (local && (decision.content === 'push' || decision.content === 'merge' || decision.content === 'create')) {
      const readOnly = remoteState ? noteReadOnlyBlocks(ctx, local.path, remoteState.blocks) : readOnlyBlocks(ctx);
      const dialect = await uploadDialect(ctx.root, local.path, local.segments);
      uploads = dialect.isUpload !== undefined;
      file = mergeFile(decision.content === 'create' ? [] : base, local, remoteState?.blocks, dialect, readOnly);
      // Blocks a restore brings back get the fields their lines do not show, as the history had them.
      const restored = id === undefined ? [] : restoredBlocks(journal, id);
      if (restored.length > 0) file = { ...file, changes: withRestoredFields(file.changes, restored, dialect.equals) };
    }
    const remotePlace = remote ? { location: remote.location, folderId: remote.folderId, dailyNoteDate: remote.dailyNoteDate ?? null } : undefined;
    const place = decision.trash
      ? { ...TRASH, dailyNoteDate: r?.dailyNoteDate ?? null }
      : decision.move || decision.create
        ? localPlace!
        : (remotePlace ?? (r ? placementOf(r) : localPlace!));
    const title =
      decision.rename ??
      (decision.create && 'title' in decision.create ? decision.create.title : undefined) ??
      remoteState?.title ??
      remote?.title ??
      r?.title ??
      '';
    const task: DocumentTask = {
      doc,
      record: r ?? null,
      local,
      decision,
      base,
      remote: remoteState,
      file,
      next: { ...place, path: local?.path ?? r!.path, title },
      remoteModifiedAt: remoteState?.lastModifiedAt ?? r?.remoteModifiedAt ?? null,
      settles: id ? (forced.get(id) ?? []) : [],
      ...(uploads ? { uploads } : {}),
    };
    plan.tasks.push(task);
    return undefined;
  };

  const localSide = (local: LocalDocument, p: Placement, r?: DocumentRecord): LocalSide => ({
    path: local.path,
    title: localTitle(local.path, local.frontMatter, r),
    changed: r ? local.hash !== r.fileHash : true,
    ...p,
  });

  for (const { record: r, local } of scan.changed) {
    const at = placementOfPath(local.path, folderPaths);
    if (!at.ok) {
      plan.problems.push({ path: local.path, message: at.problem });
      continue;
    }
    const remote = remoteSide(r.id, r);
    const decision = decideDocument({ base: baseSide(r), local: localSide(local, at.placement, r), ...(remote ? { remote } : {}) });
    await addTask(r, local, decision, at.placement, remote);
  }
  for (const r of scan.missing) {
    let remote = remoteSide(r.id, r);
    // An edit in the space beats a delete here, but the listing's "changed" may be this sync's own
    // last write, not read back yet: a document that still holds its base is taken as unchanged.
    if (remote?.changed && !forced.has(r.id) && remote.title === r.title) {
      const base = journal.getBaseBlocks(r.id);
      const state = await fetchRemoteDocument(ctx, r.id, base, listing.get(r.id)?.lastModifiedAt ?? null).catch((e: unknown) => {
        if (isSpacesyncError(e, 'not_found')) return null;
        throw e;
      });
      plan.reads++;
      if (state && holdsBase(base, state.blocks)) remote = { ...remote, changed: false };
    }
    const decision = decideDocument({ base: baseSide(r), ...(remote ? { remote } : {}) });
    if (decision.forget || decision.removeFile) continue; // gone on both sides: the pull's purge
    await addTask(r, null, decision, null, remote);
  }
  for (const local of scan.added) {
    const at = placementOfPath(local.path, folderPaths);
    if (!at.ok) {
      plan.problems.push({ path: local.path, message: at.problem });
      continue;
    }
    // A file naming a document the journal does not know (a run stopped before recording it): merged with it.
    const claim = claimedId(local);
    const remote = claim !== undefined && !byId.has(claim) ? remoteSide(claim, undefined) : undefined;
    const decision = decideDocument({ local: localSide(local, at.placement), ...(remote ? { remote } : {}) });
    await addTask(undefined, local, decision, at.placement, remote);
  }

  // A file that would wipe (most of) its document is held back whole; the rest of the push goes on.
  const flat = (segs: LocalDocument['segments']): LocalDocument['segments'] => segs.flatMap((s) => [s, ...flat(s.children)]);
  const hasText = (markdown: string) => markdown.trim() !== '';
  plan.tasks = plan.tasks.filter((t) => {
    if (!t.record || !t.local || !t.file) return true;
    const verdict = checkDocumentWipe({
      path: t.local.path,
      baseBlocks: t.base.length,
      baseWithText: t.base.filter((b) => hasText(b.markdown)).length,
      localWithText: flat(t.local.segments).filter((s) => hasText(s.markdown)).length,
      deletes: t.file.changes.removedBlocks,
      maxDeletePercent: ctx.settings.maxDeletePercent,
      force: ctx.settings.force,
    });
    if (verdict.ok) return true;
    plan.heldBack.push({ path: t.local.path, reason: 'wipe', message: verdict.message, docId: t.record.id });
    return false;
  });

  for (const t of plan.tasks) if (t.local && t.decision.create && 'title' in t.decision.create) localIds.set(t.local.path, docLinkRef(t.local.path));
  const owned = ownMarkersOf(journal);
  // Where a file was before it moved here (its record), and before the sync last moved it (a folder
  // moved in the space): a link typed there that names no document from where the file is now.
  const earlierPathsOf = (recorded: string | undefined) => (recorded === undefined ? [] : [recorded, ...formerPathsOf(journal, recorded)]);
  plan.steps = planSync({
    documents: plan.tasks.map((t) => ({
      doc: t.doc,
      name: t.next.path,
      decision: t.decision,
      ...(t.file ? { changes: sendableChanges(ctx, targets, t.file.changes, t.next.path, earlierPathsOf(t.record?.path), owned) } : {}),
    })),
    ...(plan.folders ? { folders: plan.folders } : {}),
    folderName: (id) => folderPaths.get(id),
  });
  for (const t of plan.tasks)
    for (const p of t.file?.merge.problems ?? []) plan.problems.push({ path: t.next.path, message: p.message, ...(p.outputOnly ? { outputOnly: true } : {}) });

  const verdict = checkSafety({
    known: withFiles.filter((r) => r.location !== 'trash').length,
    remoteDeletes: plan.tasks.filter((t) => t.decision.trash).length,
    localDeletes: 0,
    rootExists: true,
    localFiles: input.fullScan ? scan.filesSeen : withFiles.length,
    remoteListed: listing.size,
    maxDeletePercent: ctx.settings.maxDeletePercent,
    force: ctx.settings.force,
  });
  if (!verdict.ok)
    plan.refused = {
      reason: verdict.reason,
      message: verdict.message,
      deletes: plan.tasks
        .filter((t) => t.decision.trash)
        .map((t) => t.record?.path ?? t.next.path)
        .sort(),
    };
  plan.reads = ctx.client.stats().total - readsBefore;
  if (anchors.size > 0) plan.anchors = anchors;
  return plan;
}
