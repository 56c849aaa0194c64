// Brings the tree's shape in line with the space: directories for the built-in locations and the
// folders, a folder renamed or moved as one directory rename, a document moved or renamed as one
// file rename (never delete + create), and a journal record for each new document. Files changed
// locally stay where they are (the merge decides); the journal follows each step on disk.
import { dirOfPath, stemOfPath } from '../core/fileName.js';
import { BUILTIN_DIRS, idSuffix, needsTitle, type Layout } from '../core/layout.js';
import type { DocumentRecord } from '../journal/index.js';
import { moveFileAtomic, readMirrorFile, writeFileIfUnchanged } from '../mirror/index.js';
import type { SyncContext } from './SyncContext.js';
import type { LocalChange } from './detectLocalChanges.js';
import { withFrontMatter } from './fileText.js';
import type { RemoteSnapshot } from './listRemote.js';
import { ensureDirectory, isDirectory, moveDirectory, pathExists } from './moveDirectory.js';
import { containerOf, samePlacement, type ContainerKey, type Placement } from './remoteTypes.js';

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
}

const depthOf = (p: string) => p.split('/').length;

function withPlacement(r: DocumentRecord, path: string, p: Placement): Omit<DocumentRecord, 'syncedAt'> {
  return { id: r.id, path, title: r.title, location: p.location, folderId: p.folderId, dailyNoteDate: p.dailyNoteDate,
    remoteModifiedAt: r.remoteModifiedAt, createdAt: r.createdAt, fileHash: r.fileHash };
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

export async function applyLayout(ctx: SyncContext, snapshot: RemoteSnapshot, layout: Layout, local: ReadonlyMap<string, LocalChange>): Promise<LayoutOutcome> {
  const { journal, root } = ctx;
  const out: LayoutOutcome = { folderMoves: [], createdDirs: [], moved: [], added: [], recovered: [], blocked: [], ignored: [], unsettled: new Set(), vacated: new Set() };

  for (const dir of Object.values(BUILTIN_DIRS)) if (await ensureDirectory(root, dir)) out.createdDirs.push(dir);

  // ── folders ──
  const remote = new Map(snapshot.folders.map((f) => [f.id, f]));
  for (const r of journal.listFolders()) {
    if (remote.has(r.id)) continue;
    // Gone from the space: its documents and subfolders are placed elsewhere below.
    journal.deleteFolder(r.id);
    out.vacated.add(r.path);
  }
  const folderPath = (id: string) => journal.getFolder(id)?.path;
  let pending = snapshot.folders.filter((f) => {
    const rec = journal.getFolder(f.id);
    return rec !== undefined && rec.path !== layout.folders.get(f.id);
  }).sort((a, b) => depthOf(layout.folders.get(a.id)!) - depthOf(layout.folders.get(b.id)!));
  const holderOf = (p: string) => journal.listFolders().find((f) => f.path === p);
  while (pending.length > 0) {
    let progress = false;
    for (const f of [...pending]) {
      if (f.parentId !== null && pending.some((p) => p.id === f.parentId)) continue;
      const target = layout.folders.get(f.id)!;
      const cur = folderPath(f.id)!;
      const done = () => {
        pending = pending.filter((p) => p !== f);
        progress = true;
      };
      if (cur === target) {
        done();
        continue;
      }
      const holder = holderOf(target);
      if (holder && holder.id !== f.id) {
        if (pending.some((p) => p.id === holder.id)) continue;
        out.unsettled.add(f.id);
        done();
        continue;
      }
      if ((await isDirectory(root, cur)) && !(await pathExists(root, target))) {
        const docs = journal.listDocuments().filter((d) => d.fileHash !== null && d.path.startsWith(`${cur}/`));
        for (const d of docs) {
          ctx.ownWrites.note(d.path, null);
          ctx.ownWrites.note(target + d.path.slice(cur.length), d.fileHash);
        }
        await moveDirectory(root, cur, target);
        journal.transaction(() => {
          journal.movePathPrefix(cur, target);
          journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
        });
        out.folderMoves.push({ id: f.id, from: cur, to: target });
        if (dirOfPath(cur)) out.vacated.add(dirOfPath(cur));
      } else {
        // The name is taken on disk by something that is not a folder of the space: its
        // documents and subfolders move one by one instead.
        if (await ensureDirectory(root, target)) out.createdDirs.push(target);
        journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
        out.vacated.add(cur);
      }
      ctx.logger.info({ folder: f.id, from: cur, to: target }, 'folder moved');
      done();
    }
    if (!progress) {
      // Folders trading names: one steps aside first.
      const f = pending[0]!;
      const cur = folderPath(f.id)!;
      const aside = await asideName(ctx, cur, f.id, '');
      if (await isDirectory(root, cur)) await moveDirectory(root, cur, aside);
      journal.transaction(() => {
        journal.movePathPrefix(cur, aside);
        journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: aside, documentCount: f.documentCount });
      });
    }
  }
  for (const f of snapshot.folders) {
    const rec = journal.getFolder(f.id);
    const target = layout.folders.get(f.id)!;
    if (rec) {
      if (rec.name !== f.name || rec.parentId !== f.parentId || rec.documentCount !== f.documentCount) journal.upsertFolder({ ...rec, name: f.name, parentId: f.parentId, documentCount: f.documentCount });
      if (await ensureDirectory(root, rec.path)) out.createdDirs.push(rec.path);
      continue;
    }
    if (holderOf(target)) {
      out.unsettled.add(f.id);
      continue;
    }
    if (await ensureDirectory(root, target)) out.createdDirs.push(target);
    journal.upsertFolder({ id: f.id, name: f.name, parentId: f.parentId, path: target, documentCount: f.documentCount });
  }

  // ── documents ──
  const moves: Array<Move & { placement: Placement }> = [];
  const added: string[] = [];
  for (const [id, placement] of snapshot.placements) {
    const target = layout.documents.get(id);
    if (target === undefined) continue;
    const rec = journal.getDocument(id);
    const unsettle = () => {
      out.unsettled.add(containerOf(placement));
      if (rec) out.unsettled.add(containerOf(rec));
    };
    if (ctx.ignore(target)) {
      if (!rec || rec.path !== target) {
        out.ignored.push(id);
        unsettle();
      }
      continue;
    }
    if (!rec) added.push(id);
    else if (local.has(id)) {
      if (local.get(id) === 'missing' && rec.path !== target && rec.fileHash !== null) {
        const there = await readMirrorFile(root, target);
        if (there && there.hash === rec.fileHash && !journal.getDocumentByPath(target)) {
          journal.upsertDocument(withPlacement(rec, target, placement));
          out.recovered.push(id);
          continue;
        }
      }
      if (rec.path !== target || !samePlacement(rec, placement)) unsettle();
    } else if (rec.path !== target) moves.push({ id, from: rec.path, to: target, placement });
    else if (!samePlacement(rec, placement)) journal.upsertDocument(withPlacement(rec, rec.path, placement));
  }

  let queue = moves;
  while (queue.length > 0) {
    let progress = false;
    for (const m of [...queue]) {
      const holder = journal.getDocumentByPath(m.to);
      if (holder && holder.id !== m.id && queue.some((q) => q.id === holder.id)) continue;
      queue = queue.filter((q) => q !== m);
      progress = true;
      if (holder && holder.id !== m.id) {
        // Held by a file that stays (changed locally, or blocked): tried again next cycle.
        out.unsettled.add(containerOf(m.placement)).add(containerOf(journal.getDocument(m.id)!));
        continue;
      }
      const rec = journal.getDocument(m.id)!;
      const from = rec.path;
      if (from === m.to || rec.fileHash === null) {
        journal.upsertDocument(withPlacement(rec, m.to, m.placement));
        continue;
      }
      const result = await moveFileAtomic(root, from, m.to, { ownWrites: ctx.ownWrites });
      if (result.ok) {
        journal.upsertDocument(withPlacement(rec, m.to, m.placement));
        await fixTitleKey(ctx, rec, m.to, snapshot.documents.get(m.id)?.title);
        out.moved.push({ id: m.id, from, to: m.to });
        if (dirOfPath(from)) out.vacated.add(dirOfPath(from));
        ctx.logger.info({ doc: m.id, from, to: m.to }, 'document moved');
      } else {
        out.unsettled.add(containerOf(m.placement)).add(containerOf(rec));
        if (result.reason === 'target_exists') out.blocked.push({ id: m.id, path: from, message: `${result.message} Rename or move "${m.to}"; the document moves there on the next cycle.` });
        // A source gone since it was hashed is a local delete: the merge handles it.
      }
    }
    if (!progress) {
      // Documents trading names: one steps aside first.
      const m = queue[0]!;
      const rec = journal.getDocument(m.id)!;
      const aside = await asideName(ctx, rec.path, m.id, '.md');
      const result = await moveFileAtomic(root, rec.path, aside, { ownWrites: ctx.ownWrites });
      if (result.ok || rec.fileHash === null) journal.upsertDocument(withPlacement(rec, aside, { location: rec.location, folderId: rec.folderId, dailyNoteDate: rec.dailyNoteDate }));
      else {
        queue = queue.filter((q) => q !== m);
        out.unsettled.add(containerOf(m.placement)).add(containerOf(rec));
      }
    }
  }

  // New documents' records in one transaction (one fsync for a whole first pull).
  journal.transaction(() => {
    for (const id of added) addRecord(id);
  });
  return out;

  function addRecord(id: string): void {
    const placement = snapshot.placements.get(id)!;
    const remoteDoc = snapshot.documents.get(id)!;
    const target = layout.documents.get(id)!;
    if (journal.getDocumentByPath(target)) {
      out.unsettled.add(containerOf(placement));
      return;
    }
    journal.upsertDocument({
      id, path: target, title: remoteDoc.title, location: placement.location, folderId: placement.folderId, dailyNoteDate: placement.dailyNoteDate,
      remoteModifiedAt: null, createdAt: remoteDoc.createdAt, fileHash: null,
    });
    out.added.push(id);
  }
}
