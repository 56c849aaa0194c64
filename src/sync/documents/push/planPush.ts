// Plans the push of what changed locally, from its first pass (decidePush: the folders' and the
// documents' decisions) and what was read for it (readForPush): merges the files whose documents the
// service changed too, planSync turns it all into the fewest requests, and checkSafety may refuse.
// Nothing is read or written here, and nothing is waited for.
import { decideDocument, type DocumentDecision, type RemoteSide } from '../../../core/push/decideDocument.js';
import { docLinkRef, docRef, planSync } from '../../../core/push/plan.js';
import { checkDocumentWipe, checkSafety } from '../../../core/push/safety.js';
import type { DocumentRecord, Intent } from '../../../journal/index.js';
import {
  deletesApproved,
  fileApproved,
  formerPathsOf,
  linkTargetsOf,
  ownMarkersOf,
  readApprovals,
  restoredBlocks,
  type Approvals,
  type SyncContext,
  type SyncSettings,
} from '../../context/index.js';
import type { RemoteDocumentState } from './fetchRemoteDocument.js';
import type { BaseBlock } from '../../../core/types.js';
import { holdsBase } from '../../../core/merge/hashBlock.js';
import { mergeFile, type FileMerge } from '../../../core/merge/mergeFile.js';
import { confirmSentEdits, confirmSentInserts } from '../../../core/push/confirmSentInserts.js';
import { noteReadOnlyBlocks, readOnlyBlocks } from '../readOnlyBlocks.js';
import { carriesMarker, linkMarkdown, type Anchor, type LinkTargets } from '../../../core/links/linkDocuments.js';
import { withMarker } from '../../../dialect/index.js';
import type { DocumentTask, PushPlan } from './PushPlan.js';
import type { LocalDocument } from './readLocalDocument.js';
import type { Placement } from '../../../core/remoteTypes.js';
import { sendableChanges } from './sendableChanges.js';
import { sentEdits, sentInserts } from './sentByIntents.js';
import { withRestoredFields } from '../../../core/versions/withRestoredFields.js';
import { baseSide, localSide, placementOf, taskId, type PlanPushInput, type PushEntry, type PushSides } from './decidePush.js';
import type { PushReads } from './readForPush.js';

const TRASH: Placement = { location: 'trash', folderId: null, dailyNoteDate: null };

/** What every task of one plan is made with. */
interface Planning {
  ctx: SyncContext;
  input: PlanPushInput;
  reads: PushReads;
  plan: PushPlan;
  /** Where the links of the files sent point (typed links to blocks add their anchors). */
  targets: LinkTargets;
  /** The pending intents of the documents merged again (their payloads say what was sent). */
  pending: readonly Intent[];
}

export function planPush(ctx: SyncContext, input: PlanPushInput, sides: PushSides, reads: PushReads): PushPlan {
  const { journal } = ctx;
  const { scan } = input;
  const plan: PushPlan = {
    refused: null,
    heldBack: [...scan.heldBack],
    steps: [],
    tasks: [],
    folders: sides.folders,
    problems: [...scan.problems],
    pendingIntents: input.pendingIntents,
    reads: 0,
  };
  for (const d of scan.strayDirs)
    plan.problems.push({
      path: d,
      message: `The folder "${d}" is inside a built-in folder (Unsorted, Templates, Trash, Daily Notes), where the space has no folders; it and its files are not sent. Move it to the top of the mirror or into one of your folders.`,
    });
  for (const p of sides.folders?.problems ?? []) plan.problems.push({ path: '', message: p });
  // A file moved here names its document from where it is now, also before the push records it.
  // So does a new file once this plan creates its document (its ref, which the send makes its id).
  const localIds = new Map(scan.changed.filter((c) => c.local.path !== c.record.path).map((c) => [c.local.path, c.record.id]));
  // And a file held back while its document's recorded file is under a link still names that document.
  for (const h of scan.heldBack) if (h.reason === 'link_claim' && h.docId !== undefined) localIds.set(h.path, h.docId);
  // A typed link to a block (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals`) names it by its document's base.
  const anchors = new Map<string, Anchor>();
  // …or, for a block the base lacks, from the service's blocks this plan read to merge its document.
  const targets = linkTargetsOf(journal, localIds, { typed: anchors, read: (doc) => plan.tasks.find((t) => t.doc === doc)?.remote?.blocks });
  const planning: Planning = { ctx, input, reads, plan, targets, pending: input.forced.size > 0 ? journal.pendingIntents() : [] };
  for (const e of sides.entries) addEntry(planning, e);
  const approvals = readApprovals(journal);
  holdBackWipes(plan, ctx.settings, approvals);
  for (const t of plan.tasks) if (t.local && t.decision.create && 'title' in t.decision.create) localIds.set(t.local.path, docLinkRef(t.local.path));
  plan.steps = stepsOf(ctx, plan, targets, sides.folderPaths);
  for (const t of plan.tasks)
    for (const p of t.file?.merge.problems ?? []) plan.problems.push({ path: t.next.path, message: p.message, ...(p.outputOnly ? { outputOnly: true } : {}) });
  plan.refused = refusalOf(ctx.settings, input, sides.withFiles, plan.tasks);
  // A refusal of exactly these deletes that the person approved goes ahead (once).
  if (plan.refused && deletesApproved(approvals, plan.refused.reason, plan.refused.deletes ?? [])) {
    plan.refused = null;
    plan.approved = { ...plan.approved, files: plan.approved?.files ?? [], deletes: true };
  }
  if (anchors.size > 0) plan.anchors = anchors;
  return plan;
}

function addEntry(s: Planning, e: PushEntry): void {
  if (e.kind === 'unplaced') s.plan.problems.push({ path: e.path, message: e.problem });
  else if (e.kind === 'file') addTask(s, e.record, e.local, e.decision, e.place, e.remote, e.base);
  else {
    // A document deleted here that the space shows changed, read back holding its base: this sync's own last write.
    const state = e.check ? s.reads.remote.get(e.record.id) : null;
    const remote = state && e.remote && holdsBase(e.base, state.blocks) ? { ...e.remote, changed: false } : e.remote;
    const decision = decideDocument({ base: baseSide(e.record), ...(remote ? { remote } : {}) });
    if (decision.forget || decision.removeFile) return; // gone on both sides: the pull's purge
    addTask(s, e.record, null, decision, null, remote, e.base);
  }
}

function addTask(
  s: Planning,
  r: DocumentRecord | undefined,
  local: LocalDocument | null,
  decision: DocumentDecision,
  localPlace: Placement | null,
  remote: RemoteSide | undefined,
  recorded: BaseBlock[],
): void {
  for (const p of [...decision.problems, ...decision.conflicts]) s.plan.problems.push({ path: local?.path ?? r?.path ?? '', message: p });
  const id = taskId(r, local, decision);
  let base = recorded;
  let remoteState: RemoteDocumentState | null = null;
  if (decision.content === 'merge' && id !== undefined) {
    if (!s.reads.remote.has(id)) throw new Error(`planPush: document ${id} is to be merged and was not read first`);
    remoteState = s.reads.remote.get(id)!;
    // Gone between the listing and the read: decided again without the service's side.
    if (remoteState === null) {
      const again = decideDocument({ ...(r ? { base: baseSide(r) } : {}), ...(local && localPlace ? { local: localSide(local, localPlace, r) } : {}) });
      return addTask(s, r, local, again, localPlace, undefined, recorded);
    }
  }
  // A push that went out unrecorded: the blocks it edited are based on what it sent, where the space holds that.
  if (remoteState && id !== undefined && s.input.forced.has(id)) base = confirmSent(s, base, id, remoteState, r?.path ?? local?.path);
  const merged =
    local && (decision.content === 'push' || decision.content === 'merge' || decision.content === 'create')
      ? mergedFile(s, local, decision, base, remoteState, id)
      : null;
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
  s.plan.tasks.push({
    doc: id ?? docRef(local!.path),
    record: r ?? null,
    local,
    decision,
    base,
    remote: remoteState,
    file: merged?.file ?? null,
    next: { ...place, path: local?.path ?? r!.path, title },
    remoteModifiedAt: remoteState?.lastModifiedAt ?? r?.remoteModifiedAt ?? null,
    settles: id ? (s.input.forced.get(id) ?? []) : [],
    ...(merged?.uploads ? { uploads: true } : {}),
  });
}

/** The base of a document an earlier run sent to without recording it: the edits and inserts it sent, where the space holds them. */
function confirmSent(s: Planning, base: BaseBlock[], id: string, remote: RemoteDocumentState, path: string | undefined): BaseBlock[] {
  const intents = s.input.forced.get(id)!;
  // What was sent linked other documents by id; the space's blocks here show them as the file does.
  const shown = (markdown: string) => (path === undefined ? markdown : linkMarkdown(markdown, path, s.targets));
  // …and a block a file links to carries its marker, which was not sent.
  const kinds = new Map(base.map((b) => [b.id, b]));
  const marked = (blockId: string, markdown: string) => {
    const fragment = s.targets.anchorOf?.(blockId)?.fragment;
    const b = kinds.get(blockId);
    return fragment?.startsWith('^') && b && carriesMarker(b.kind, b.type, markdown) ? withMarker(markdown, fragment.slice(1)) : markdown;
  };
  const edits = new Map([...sentEdits(s.pending, intents)].map(([k, v]) => [k, marked(k, shown(v))]));
  const edited = confirmSentEdits(base, edits, remote.byId);
  return confirmSentInserts(
    edited,
    sentInserts(s.pending, intents).map((b) => ({ ...b, markdown: shown(b.markdown) })),
    remote.blocks,
  );
}

/** The file merged with its base and the service's blocks; `uploads`: some of its lines reference local files (the media step's). */
function mergedFile(
  s: Planning,
  local: LocalDocument,
  decision: DocumentDecision,
  base: BaseBlock[],
  remote: RemoteDocumentState | null,
  id: string | undefined,
): { file: FileMerge; uploads: boolean } {
  const { ctx } = s;
  const readOnly = remote ? noteReadOnlyBlocks(ctx, local.path, remote.blocks) : readOnlyBlocks(ctx);
  const dialect = s.reads.dialects.get(local.path)!;
  let file = mergeFile(decision.content === 'create' ? [] : base, local, remote?.blocks, dialect, readOnly);
  // Blocks a restore brings back get the fields their lines do not show, as the history had them.
  const restored = id === undefined ? [] : restoredBlocks(ctx.journal, id);
  if (restored.length > 0) file = { ...file, changes: withRestoredFields(file.changes, restored, dialect.equals) };
  return { file, uploads: dialect.isUpload !== undefined };
}

/**
 * A file that would wipe (most of) its document is held back whole, with the hash it has (what an
 * approval is of); the rest of the push goes on. An approved file goes, as it was approved.
 */
function holdBackWipes(plan: PushPlan, settings: Pick<SyncSettings, 'maxDeletePercent' | 'force'>, approvals: Approvals): void {
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
      maxDeletePercent: settings.maxDeletePercent,
      force: settings.force,
    });
    if (verdict.ok) return true;
    if (fileApproved(approvals, t.local.path, t.local.hash)) {
      plan.approved = { files: [...(plan.approved?.files ?? []), t.local.path], deletes: plan.approved?.deletes ?? false };
      return true;
    }
    plan.heldBack.push({ path: t.local.path, reason: 'wipe', message: verdict.message, docId: t.record.id, hash: t.local.hash });
    return false;
  });
}

/** The requests, in the order they go (planSync, core/push/plan). */
function stepsOf(ctx: SyncContext, plan: PushPlan, targets: LinkTargets, folderPaths: ReadonlyMap<string, string>): PushPlan['steps'] {
  const owned = ownMarkersOf(ctx.journal);
  // Where a file was before it moved here (its record), and before the sync last moved it (a folder
  // moved in the space): a link typed there that names no document from where the file is now.
  const earlierPathsOf = (recorded: string | undefined) => (recorded === undefined ? [] : [recorded, ...formerPathsOf(ctx.journal, recorded)]);
  return planSync({
    documents: plan.tasks.map((t) => ({
      doc: t.doc,
      name: t.next.path,
      decision: t.decision,
      ...(t.file ? { changes: sendableChanges(ctx, targets, t.file.changes, t.next.path, earlierPathsOf(t.record?.path), owned) } : {}),
    })),
    ...(plan.folders ? { folders: plan.folders } : {}),
    folderName: (id) => folderPaths.get(id),
  });
}

/** The safety check of the whole push: too many documents to the trash, or a mirror that looks emptied. */
function refusalOf(settings: SyncSettings, input: PlanPushInput, withFiles: readonly DocumentRecord[], tasks: readonly DocumentTask[]): PushPlan['refused'] {
  const trashed = tasks.filter((t) => t.decision.trash);
  const verdict = checkSafety({
    known: withFiles.filter((r) => r.location !== 'trash').length,
    remoteDeletes: trashed.length,
    localDeletes: 0,
    rootExists: true,
    localFiles: input.fullScan ? input.scan.filesSeen : withFiles.length,
    remoteListed: input.listing.size,
    maxDeletePercent: settings.maxDeletePercent,
    force: settings.force,
  });
  if (verdict.ok) return null;
  return { reason: verdict.reason, message: verdict.message, deletes: trashed.map((t) => t.record?.path ?? t.next.path).sort() };
}
