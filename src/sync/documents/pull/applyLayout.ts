// Runs the shape steps of the pull's plan (core/pull/planPull decided them): directories for the
// built-in locations and the folders, a folder renamed or moved as one directory rename, a document
// moved or renamed as one file rename (never delete + create), and a journal record for each new
// document. What is left here is how: the order of renames, a name stepping aside while names are
// traded, and what the disk says at the moment of each step. The journal follows each step on disk.
import { dirOfPath, stemOfPath } from '../../../core/files/fileName.js';
import { BUILTIN_DIRS, idSuffix, needsTitle, type Layout } from '../../../core/pull/layout.js';
import type { PullPlan } from '../../../core/pull/PullPlan.js';
import type { DocumentRecord } from '../../../journal/index.js';
import { linkOnTheWay, moveFileAtomic, readMirrorFile, writeFileIfUnchanged } from '../../../mirror/index.js';
import type { SyncContext } from '../../context/index.js';
import { withFrontMatter } from '../../../core/files/fileText.js';
import { hashBlock } from '../../../core/merge/hashBlock.js';
import { destinationOf, relinkAsset, withDestination } from '../../../core/media/linkAssets.js';
import type { RemoteSnapshot } from './listRemote.js';
import { ensureDirectory, isDirectory, moveDirectory, pathExists } from '../../context/index.js';
import { containerOf, type ContainerKey, type Placement } from '../../../core/remoteTypes.js';

export interface Move {
  id: string;
  from: string;
  to: string;
}

export interface LayoutOutcome {
  folderMoves: Move[];
  createdDirs: string[];
  moved: Move[];
  /** New documents recorded at their path, to be written by the pull. */
  added: string[];
  /**
   * Documents whose file was missing at its recorded path but is found, unchanged, where the
   * layout puts it: a move a stopped run made on disk and did not record. Recorded now.
   */
  recovered: string[];
  blocked: Array<{ id: string; path: string; message: string }>;
  /** Documents whose new path is ignored: left out of the mirror. */
  ignored: string[];
  /** Containers with a membership change not applied: their counts are not recorded, so they are listed again. */
  unsettled: Set<ContainerKey>;
  /** Directories something left; removed at the end of the cycle when empty and no folder's. */
  vacated: Set<string>;
  /**
   * Files moved with an edit in them that was saved after the pull looked (a poll looks only at
   * the files the watcher named): the push looks at them where they are now.
   */
  movedEdited: Array<{ id: string; path: string }>;
}

const depthOf = (p: string) => p.split('/').length;

function withPlacement(r: DocumentRecord, path: string, p: Placement): Omit<DocumentRecord, 'syncedAt'> {
  return {
    id: r.id,
    path,
    title: r.title,
    location: p.location,
    folderId: p.folderId,
    dailyNoteDate: p.dailyNoteDate,
    remoteModifiedAt: r.remoteModifiedAt,
    createdAt: r.createdAt,
    fileHash: r.fileHash,
  };
}

/** A free name beside `relPath` for a file or folder stepping aside while names are traded. */
async function asideName(ctx: SyncContext, relPath: string, id: string, ext: string): Promise<string> {
  const dir = dirOfPath(relPath);
  const stem = ext ? stemOfPath(relPath) : relPath.slice(dir ? dir.length + 1 : 0);
  for (let n = 1; ; n++) {
    const name = `${stem} (moving ${idSuffix(id)}${n > 1 ? ` ${n}` : ''})${ext}`;
    const candidate = dir ? `${dir}/${name}` : name;
    const held = ext ? ctx.journal.getDocumentByPath(candidate) : ctx.journal.listFolders().find((f) => f.path === candidate);
    if (!held && !(await pathExists(ctx.root, candidate))) return candidate;
  }
}

/**
 * After a rename the front matter must carry the title exactly when the new name cannot (a name
 * that gained or lost a collision suffix): rewritten here, only in a file nobody touched.
 */
async function fixTitleKey(ctx: SyncContext, rec: DocumentRecord, to: string, remoteTitle: string | undefined): Promise<void> {
  // A document retitled in the space is read this cycle, and that write sets the front matter.
  if (rec.fileHash === null || remoteTitle !== rec.title) return;
  const file = await readMirrorFile(ctx.root, to);
  if (!file || file.text === null || file.hash !== rec.fileHash) return;
  const fm = withFrontMatter(file.text, { id: rec.id, title: needsTitle(rec.title, to) ? rec.title : undefined }, to);
  if (!fm.ok || fm.text === file.text) return;
  const w = await writeFileIfUnchanged(ctx.root, to, fm.text, file.hash, { ownWrites: ctx.ownWrites });
  if (w.written) ctx.journal.setFileHash(rec.id, w.hash);
}

/**
 * A document file renamed by the pull alone (the space's new title came with a push that merged it):
 * its links into `<old name>.assets/` now point into `<new name>.assets/`, in the file and in base,
 * as a pull that read the document would have written them; the scene and asset files follow their
 * links. Only a file that is as recorded is rewritten: one changed here keeps its links for its push.
 */
async function relinkAssets(ctx: SyncContext, id: string, from: string, to: string): Promise<void> {
  const rec = ctx.journal.getDocument(id);
  if (!rec || rec.fileHash === null || stemOfPath(from) === stemOfPath(to)) return;
  const base = ctx.journal.getBaseBlocks(id);
  const next = base.map((b) => {
    const markdown = relinkAsset(b.markdown, from, to);
    return markdown === b.markdown ? b : { ...b, markdown, hash: hashBlock(markdown, b.kind, b.cardLayout) };
  });
  if (next.every((b, i) => b === base[i])) return;
  const file = await readMirrorFile(ctx.root, to);
  if (!file || file.text === null || file.hash !== rec.fileHash) return;
  let text = file.text;
  for (let i = 0; i < base.length; i++) {
    if (next[i] === base[i]) continue;
    const at = text.indexOf(base[i]!.markdown);
    if (at >= 0) {
      text = text.slice(0, at) + next[i]!.markdown + text.slice(at + base[i]!.markdown.length);
      continue;
    }
    // The file writes the line in a form the dialect reads as the same (an image uploaded from the
    // mirror, as the user typed it): its link is found by its destination.
    const from = destinationOf(base[i]!.markdown)!;
    const link = [`](<${from}>)`, `](${from})`].find((l) => text.includes(l));
    if (link === undefined) return;
    text = text.replace(link, () => `]${withDestination('[]()', destinationOf(next[i]!.markdown)!).slice(2)}`);
  }
  const w = await writeFileIfUnchanged(ctx.root, to, text, file.hash, { ownWrites: ctx.ownWrites });
  if (!w.written) return;
  ctx.journal.transaction(() => {
    ctx.journal.replaceBaseBlocks(id, next);
    ctx.journal.setFileHash(id, w.hash);
  });
}

export async function applyLayout(ctx: SyncContext, snapshot: RemoteSnapshot, layout: Layout, plan: PullPlan): Promise<LayoutOutcome> {
  return new LayoutRun(ctx, snapshot, layout, plan).run();
}

type QueuedMove = Move & { placement: Placement };
type RemoteFolder = RemoteSnapshot['folders'][number];

/** A layout that did nothing (a quiet poll's, which skips it), but for the containers `unsettled`. */
export function nothingLaidOut(unsettled: Iterable<ContainerKey> = []): LayoutOutcome {
  return {
    folderMoves: [],
    createdDirs: [],
    moved: [],
    added: [],
    recovered: [],
    blocked: [],
    ignored: [],
    unsettled: new Set(unsettled),
    vacated: new Set(),
    movedEdited: [],
  };
}

/** One run of the layout: the steps in order, what each did gathered in `out`. */
class LayoutRun {
  private readonly out: LayoutOutcome;

  constructor(
    private readonly ctx: SyncContext,
    private readonly snapshot: RemoteSnapshot,
    private readonly layout: Layout,
    private readonly plan: PullPlan,
  ) {
    this.out = nothingLaidOut(plan.unsettled);
  }

  async run(): Promise<LayoutOutcome> {
    const { journal, root } = this.ctx;
    for (const dir of Object.values(BUILTIN_DIRS)) if (await ensureDirectory(root, dir)) this.out.createdDirs.push(dir);
    for (const step of this.plan.folders) {
      if (step.kind !== 'remove') continue;
      // Gone from the space: its documents and subfolders are placed elsewhere below.
      journal.deleteFolder(step.id);
      this.out.vacated.add(step.path);
    }
    await this.moveFolders();
    await this.placeFolders();
    const added = await this.moveDocuments(this.queueDocuments());
    // New documents' records in one transaction (one fsync for a whole first pull).
    journal.transaction(() => {
      for (const id of added) this.addRecord(id);
    });
    return this.out;
  }

  private holderOf(p: string) {
    return this.ctx.journal.listFolders().find((f) => f.path === p);
  }

  /** The folders renamed or moved in the space, parents first; folders trading names step aside one at a time. */
  private async moveFolders(): Promise<void> {
    const { journal } = this.ctx;
    const { layout } = this;
    const moving = new Set(this.plan.folders.filter((s) => s.kind === 'move').map((s) => s.id));
    let pending = this.snapshot.folders.filter((f) => moving.has(f.id)).sort((a, b) => depthOf(layout.folders.get(a.id)!) - depthOf(layout.folders.get(b.id)!));
    while (pending.length > 0) {
      let progress = false;
      for (const f of [...pending]) {
        if (f.parentId !== null && pending.some((p) => p.id === f.parentId)) continue;
        const target = layout.folders.get(f.id)!;
        const cur = journal.getFolder(f.id)!.path;
        const holder = cur === target ? undefined : this.holderOf(target);
        // Its name is held by a folder that moves too: after that one.
        if (holder && holder.id !== f.id && pending.some((p) => p.id === holder.id)) continue;
        pending = pending.filter((p) => p !== f);
        progress = true;
        if (cur === target) continue;
        if (holder && holder.id !== f.id) this.out.unsettled.add(f.id);
        else await this.moveFolder(f, cur, target);
      }
      // Folders trading names: one steps aside first.
      if (!progress) await this.stepFolderAside(pending[0]!);
    }
  }

  private async moveFolder(f: RemoteFolder, cur: string, target: string): Promise<void> {
    const { journal, root } = this.ctx;
    if ((await isDirectory(root, cur)) && !(await pathExists(root, target))) {
      const docs = journal.listDocuments().filter((d) => d.fileHash !== null && d.path.startsWith(`${cur}/`));
      for (const d of docs) {
        this.ctx.ownWrites.note(d.path, null);
        this.ctx.ownWrites.note(target + d.path.slice(cur.length), d.fileHash);
      }
      await moveDirectory(root, cur, target);
      journal.transaction(() => {
        journal.movePathPrefix(cur, target);
        journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
      });
      this.out.folderMoves.push({ id: f.id, from: cur, to: target });
      if (dirOfPath(cur)) this.out.vacated.add(dirOfPath(cur));
    } else {
      // The name is taken on disk by something that is not a folder of the space: its
      // documents and subfolders move one by one instead.
      if (await ensureDirectory(root, target)) this.out.createdDirs.push(target);
      await this.moveInsideOneByOne(cur, target);
      journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
      this.out.vacated.add(cur);
    }
    this.ctx.logger.info({ folder: f.id, from: cur, to: target }, 'folder moved');
  }

  private async stepFolderAside(f: RemoteFolder): Promise<void> {
    const { journal, root } = this.ctx;
    const cur = journal.getFolder(f.id)!.path;
    const aside = await asideName(this.ctx, cur, f.id, '');
    if (await isDirectory(root, cur)) await moveDirectory(root, cur, aside);
    journal.transaction(() => {
      journal.movePathPrefix(cur, aside);
      journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: aside, documentCount: f.documentCount });
    });
  }

  /** Every folder of the space has its directory and its record (new ones where the layout puts them). */
  private async placeFolders(): Promise<void> {
    const { journal, root } = this.ctx;
    for (const f of this.snapshot.folders) {
      const rec = journal.getFolder(f.id);
      const target = this.layout.folders.get(f.id)!;
      // A folder that is (or is inside) a symbolic link is held back: never created or written through.
      if (linkOnTheWay(root, rec?.path ?? target) !== null) {
        this.out.unsettled.add(f.id);
        continue;
      }
      if (rec) {
        if (rec.name !== f.name || rec.parentId !== f.parentId || rec.documentCount !== f.documentCount)
          journal.upsertFolder({ ...rec, name: f.name, parentId: f.parentId, documentCount: f.documentCount });
        if (await ensureDirectory(root, rec.path)) this.out.createdDirs.push(rec.path);
        continue;
      }
      if (this.holderOf(target)) {
        this.out.unsettled.add(f.id);
        continue;
      }
      if (await ensureDirectory(root, target)) this.out.createdDirs.push(target);
      journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
    }
  }

  /** The documents' steps: the moves to make (returned), the new documents, the ignored ones, the moves found made. */
  private queueDocuments(): { moves: QueuedMove[]; added: string[] } {
    const { journal } = this.ctx;
    const moves: QueuedMove[] = [];
    const added: string[] = [];
    for (const step of this.plan.documents) {
      if (step.kind === 'blocked' && step.reason === 'ignored') this.out.ignored.push(step.id);
      else if (step.kind === 'write' && step.reason === 'new_document') added.push(step.id);
      else if (step.kind === 'move' && step.reason === 'found_there') {
        journal.upsertDocument(withPlacement(journal.getDocument(step.id)!, step.to, step.placement));
        this.out.recovered.push(step.id);
      } else if (step.kind === 'move') moves.push({ id: step.id, from: step.from, to: step.to, placement: step.placement });
      else if (step.kind === 'place') {
        const rec = journal.getDocument(step.id)!;
        if (rec.path === step.path) journal.upsertDocument(withPlacement(rec, rec.path, step.placement));
        else moves.push({ id: step.id, from: rec.path, to: step.path, placement: step.placement });
      }
    }
    return { moves, added };
  }

  /** The documents' moves, each as one file rename; documents trading names step aside one at a time. Returns the new documents. */
  private async moveDocuments({ moves, added }: { moves: QueuedMove[]; added: string[] }): Promise<string[]> {
    const { journal } = this.ctx;
    let queue = moves;
    while (queue.length > 0) {
      let progress = false;
      for (const m of [...queue]) {
        const holder = journal.getDocumentByPath(m.to);
        if (holder && holder.id !== m.id && queue.some((q) => q.id === holder.id)) continue;
        queue = queue.filter((q) => q !== m);
        progress = true;
        // Held by a file that stays (changed locally, or blocked): tried again next cycle.
        if (holder && holder.id !== m.id) this.out.unsettled.add(containerOf(m.placement)).add(containerOf(journal.getDocument(m.id)!));
        else await this.moveDocument(m);
      }
      if (progress) continue;
      const m = queue[0]!;
      if (!(await this.stepDocumentAside(m))) queue = queue.filter((q) => q !== m);
    }
    return added;
  }

  private async moveDocument(m: QueuedMove): Promise<void> {
    const { journal, root } = this.ctx;
    const rec = journal.getDocument(m.id)!;
    const from = rec.path;
    if (from === m.to || rec.fileHash === null) {
      journal.upsertDocument(withPlacement(rec, m.to, m.placement));
      return;
    }
    const result = await moveFileAtomic(root, from, m.to, { ownWrites: this.ctx.ownWrites });
    if (result.ok) {
      journal.upsertDocument(withPlacement(rec, m.to, m.placement));
      if (result.outcome === 'moved' && result.hash !== rec.fileHash) this.out.movedEdited.push({ id: m.id, path: m.to });
      await fixTitleKey(this.ctx, rec, m.to, this.snapshot.documents.get(m.id)?.title);
      await relinkAssets(this.ctx, m.id, from, m.to);
      this.out.moved.push({ id: m.id, from, to: m.to });
      if (dirOfPath(from)) this.out.vacated.add(dirOfPath(from));
      this.ctx.logger.info({ doc: m.id, from, to: m.to }, 'document moved');
    } else {
      this.out.unsettled.add(containerOf(m.placement)).add(containerOf(rec));
      if (result.reason === 'target_exists')
        this.out.blocked.push({ id: m.id, path: from, message: `${result.message} Rename or move "${m.to}"; the document moves there on the next cycle.` });
      // A source gone since it was hashed is a local delete: the merge handles it.
    }
  }

  /** Documents trading names: this one steps aside first; false when it could not (it stays, unsettled). */
  private async stepDocumentAside(m: QueuedMove): Promise<boolean> {
    const { journal, root } = this.ctx;
    const rec = journal.getDocument(m.id)!;
    const aside = await asideName(this.ctx, rec.path, m.id, '.md');
    const result = await moveFileAtomic(root, rec.path, aside, { ownWrites: this.ctx.ownWrites });
    if (result.ok || rec.fileHash === null) {
      journal.upsertDocument(withPlacement(rec, aside, { location: rec.location, folderId: rec.folderId, dailyNoteDate: rec.dailyNoteDate }));
      return true;
    }
    this.out.unsettled.add(containerOf(m.placement)).add(containerOf(rec));
    return false;
  }

  /** A folder's move run file by file: each recorded document inside goes to the same place under `to`. */
  private async moveInsideOneByOne(from: string, to: string): Promise<void> {
    const { journal, root } = this.ctx;
    const changedHere = new Set(this.plan.documents.filter((s) => s.kind === 'keep').map((s) => s.id));
    for (const { syncedAt: _at, ...d } of journal.listDocuments().filter((r) => r.path.startsWith(`${from}/`))) {
      if (changedHere.has(d.id)) {
        // Changed here: left where it is for the merge, as a file changed here always is.
        this.out.unsettled.add(containerOf(d));
        continue;
      }
      const dest = to + d.path.slice(from.length);
      const holder = journal.getDocumentByPath(dest);
      if (holder && holder.id !== d.id) {
        // Another document's record is there already (a file taken for a new document while this
        // record kept its old path): this one stays where it was, and the next scan finds it gone.
        this.out.unsettled.add(containerOf(d));
        continue;
      }
      const moved = d.fileHash === null ? null : await moveFileAtomic(root, d.path, dest, { ownWrites: this.ctx.ownWrites });
      if (moved && !moved.ok && moved.reason === 'target_exists') {
        this.out.unsettled.add(containerOf(d));
        this.out.blocked.push({ id: d.id, path: d.path, message: `${moved.message} Rename or move "${dest}"; the document moves there on the next cycle.` });
        continue;
      }
      journal.upsertDocument({ ...d, path: dest });
      if (moved?.ok) this.out.moved.push({ id: d.id, from: d.path, to: dest });
      if (moved?.ok && moved.outcome === 'moved' && moved.hash !== d.fileHash) this.out.movedEdited.push({ id: d.id, path: dest });
    }
    for (const sub of journal.listFolders().filter((r) => r.path.startsWith(`${from}/`)))
      journal.upsertFolder({ ...sub, path: to + sub.path.slice(from.length) });
  }

  private addRecord(id: string): void {
    const { journal } = this.ctx;
    const placement = this.snapshot.placements.get(id)!;
    const remoteDoc = this.snapshot.documents.get(id)!;
    const target = this.layout.documents.get(id)!;
    if (journal.getDocumentByPath(target)) {
      this.out.unsettled.add(containerOf(placement));
      return;
    }
    journal.upsertDocument({
      id,
      path: target,
      title: remoteDoc.title,
      location: placement.location,
      folderId: placement.folderId,
      dailyNoteDate: placement.dailyNoteDate,
      remoteModifiedAt: null,
      createdAt: remoteDoc.createdAt,
      fileHash: null,
    });
    this.out.added.push(id);
  }
}
