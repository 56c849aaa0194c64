// Decides the push for what changed locally: folder steps, new documents, moves, restores from and
// deletes to the trash, each document's blocks (merged with the service's when they changed since
// base: the listing says which), then the safety checks. Reads only; the steps are carried out by
// executePush exactly as planned.
import { isSpacesyncError } from '../errors.js';
import type { DocumentRecord, Intent, ListingEntry } from '../journal/index.js';
import type { SyncContext } from './SyncContext.js';
import type { RecordFields } from './executeDocumentPush.js';
import { fetchRemoteDocument, type RemoteDocumentState } from './fetchRemoteDocument.js';
import { localTitle } from './localTitle.js';
import { placementOfPath } from './placementOfPath.js';
import { planDocumentPush } from './planDocumentPush.js';
import { planFolders } from './planFolders.js';
import { checkPushSafety } from './checkPushSafety.js';
import type { PushPlan, PushStep } from './PushPlan.js';
import { DOC_REF, type FolderRef } from './pushRequests.js';
import type { LocalDocument } from './readLocalDocument.js';
import { samePlacement, type Placement } from './remoteTypes.js';
import type { LocalScan } from './scanLocal.js';
import type { DocumentDestination } from '../client/index.js';

export interface PlanPushInput {
  scan: LocalScan;
  /** Every document the space lists now. */
  listing: ReadonlyMap<string, ListingEntry>;
  /** Where the space holds each document, when a full listing was taken. */
  placements?: ReadonlyMap<string, Placement>;
  intents: readonly Intent[];
  /** The scan covered the whole mirror (the empty-root check needs it). */
  fullScan: boolean;
}

type Destination = DocumentDestination | FolderRef;

function destinationOf(p: Placement): Destination | null {
  if (p.location === 'folder') return { folderId: p.folderId! };
  if (p.location === 'unsorted' || p.location === 'templates') return { destination: p.location };
  return null;
}
const keyOf = (d: Destination) => ('folderId' in d ? `f:${d.folderId}` : d.destination);

export async function planPush(ctx: SyncContext, input: PlanPushInput): Promise<PushPlan> {
  const { journal } = ctx;
  const readsBefore = ctx.client.stats().total;
  const { scan, listing } = input;
  const plan: PushPlan = { refused: null, steps: [], problems: [...scan.problems], pendingIntents: input.intents.length, reads: 0 };
  const settles = new Map<string, number[]>();
  for (const i of input.intents) if (i.docId !== null) settles.set(i.docId, [...(settles.get(i.docId) ?? []), i.id]);

  const folders = planFolders({ folders: journal.listFolders(), addedDirs: scan.addedDirs, removedDirs: scan.removedDirs, changed: scan.changed, ...(input.placements ? { placements: input.placements } : {}) });
  plan.problems.push(...folders.problems);

  const creates = new Map<string, Extract<PushStep, { kind: 'createDocuments' }>>();
  const moves = new Map<string, Extract<PushStep, { kind: 'moveDocuments' }>>();
  const content: PushStep[] = [];
  const toTrash: Array<{ id: string; path: string }> = [];
  let refs = 0;

  const moveTo = (id: string, path: string, placement: Placement) => {
    const dest = destinationOf(placement)!;
    const m = moves.get(keyOf(dest)) ?? { kind: 'moveDocuments' as const, placement, request: { op: 'PUT /documents/move' as const, docs: [], paths: [], destination: dest } };
    m.request.docs.push(id);
    m.request.paths.push(path);
    moves.set(keyOf(dest), m);
  };
  for (const [ref, ids] of folders.carried) for (const id of ids) moveTo(id, `(a document only the space has, in "${folders.folderPaths.get(ref)}")`, { location: 'folder', folderId: ref, dailyNoteDate: null });

  const addNew = (local: LocalDocument) => {
    const at = placementOfPath(local.path, folders.folderPaths);
    if (!at.ok) return plan.problems.push({ path: local.path, message: at.problem });
    const placement = at.placement;
    if (placement.location === 'trash') {
      return plan.problems.push({ path: local.path, message: `"${local.path}" is a new file in Trash/; the space cannot create documents in its trash, so it is not sent. Move it out of Trash/ to create it.` });
    }
    const id = `${DOC_REF}${++refs}`;
    // The title travels with the creation; the blocks follow.
    const title = localTitle(local.path, local.frontMatter);
    const docPlan = planDocumentPush({ id, path: local.path, local, base: [], remote: null, baseTitle: title, localTitle: title });
    if (placement.location === 'daily_notes') {
      const first = docPlan.requests[0];
      if (!first || first.op !== 'POST /blocks') return plan.problems.push({ path: local.path, message: `"${local.path}" is an empty daily note; it is created in the space once it has some text.` });
      first.anchor = { date: placement.dailyNoteDate! };
    } else {
      const dest = destinationOf(placement)!;
      const c = creates.get(keyOf(dest)) ?? { kind: 'createDocuments' as const, placement, request: { op: 'POST /documents' as const, refs: [], paths: [], titles: [], destination: dest } };
      c.request.refs.push(id);
      c.request.paths.push(local.path);
      c.request.titles.push(docPlan.title);
      creates.set(keyOf(dest), c);
    }
    const fields: RecordFields = { ...placement, createdAt: null, remoteModifiedAt: null };
    content.push({ kind: 'content', plan: docPlan, fields, settles: [], created: true });
    return 0;
  };

  const remoteOf = async (r: DocumentRecord, entry: ListingEntry | undefined, base: ReturnType<typeof journal.getBaseBlocks>): Promise<RemoteDocumentState | null | 'gone'> => {
    if (!entry) return 'gone';
    const changed = entry.lastModifiedAt !== r.remoteModifiedAt || entry.title !== r.title || settles.has(r.id);
    if (!changed) return null;
    try {
      return await fetchRemoteDocument(ctx, r.id, base, entry.lastModifiedAt);
    } catch (e) {
      if (isSpacesyncError(e, 'not_found')) return 'gone';
      throw e;
    }
  };

  for (const { record: r, local, moved } of scan.changed) {
    const at = placementOfPath(local.path, folders.folderPaths);
    if (!at.ok) {
      plan.problems.push({ path: local.path, message: at.problem });
      continue;
    }
    const was: Placement = { location: r.location, folderId: r.folderId, dailyNoteDate: r.dailyNoteDate };
    let placement = at.placement;
    const relocated = moved && !samePlacement(was, placement);
    if (relocated && (was.location === 'daily_notes' || placement.location === 'daily_notes')) {
      plan.problems.push({ path: local.path, message: `"${local.path}" is the daily note of ${r.dailyNoteDate ?? 'a day'} moved to another folder, or a file moved into ${'Daily Notes'}/; daily notes cannot be moved in the space, so nothing of it is sent. Move it back to "${r.path}".` });
      continue;
    }
    const base = journal.getBaseBlocks(r.id);
    const remote = await remoteOf(r, listing.get(r.id), base);
    if (remote === 'gone') {
      // Purged from the space while edited here: the edit beats the delete, as a new document.
      addNew(local);
      continue;
    }
    const trashedThere = input.placements?.get(r.id)?.location === 'trash' && was.location !== 'trash';
    const docPlan = planDocumentPush({ id: r.id, path: local.path, local, base, remote, baseTitle: r.title, localTitle: localTitle(local.path, local.frontMatter, r) });
    const edited = docPlan.requests.length > 0;
    if (placement.location === 'trash' && was.location !== 'trash') toTrash.push({ id: r.id, path: local.path });
    else if (relocated) moveTo(r.id, local.path, placement);
    else if (trashedThere && edited && destinationOf(placement)) moveTo(r.id, local.path, placement);
    else if (trashedThere) placement = { location: 'trash', folderId: null, dailyNoteDate: null };
    const fields: RecordFields = { ...placement, createdAt: r.createdAt, remoteModifiedAt: remote?.lastModifiedAt ?? r.remoteModifiedAt };
    content.push({ kind: 'content', plan: docPlan, fields, settles: settles.get(r.id) ?? [], created: false });
  }

  const restores: PushStep[] = [];
  for (const r of scan.missing) {
    const entry = listing.get(r.id);
    if (!entry) continue; // purged there too: the pull forgets it
    const remoteChanged = entry.lastModifiedAt !== r.remoteModifiedAt || entry.title !== r.title;
    if (remoteChanged) restores.push({ kind: 'restoreFile', id: r.id, path: r.path });
    else if (r.location === 'trash') continue; // deleted from Trash/: stays in the space's trash until it is purged
    else if (input.placements?.get(r.id)?.location === 'trash') restores.push({ kind: 'trashedBoth', id: r.id, path: r.path });
    else toTrash.push({ id: r.id, path: r.path });
  }
  for (const local of scan.added) addNew(local);

  plan.steps = [...folders.before, ...creates.values(), ...moves.values(), ...content, ...restores];
  if (toTrash.length > 0) plan.steps.push({ kind: 'deleteDocuments', request: { op: 'DELETE /documents', docs: toTrash.map((d) => d.id), paths: toTrash.map((d) => d.path) } });
  plan.steps.push(...folders.after);

  const records = journal.listDocuments();
  plan.refused = checkPushSafety({
    root: ctx.root, known: records.filter((r) => r.fileHash !== null && r.location !== 'trash').length, listed: listing.size, recorded: records.length,
    deleting: scan.missing.filter((r) => toTrash.some((d) => d.id === r.id)).length, filesSeen: input.fullScan ? scan.filesSeen : undefined,
    maxDeletePercent: ctx.settings.maxDeletePercent, force: ctx.settings.force,
  });
  plan.reads = ctx.client.stats().total - readsBefore;
  return plan;
}
