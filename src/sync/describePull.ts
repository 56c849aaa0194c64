// What a cycle's pull would do, computed from one listing and the journal, changing nothing:
// the `--dry-run` answer. It lists; it reads no document and writes no file.
import { BUILTIN_DIRS, planLayout } from '../core/layout.js';
import { checkPullSafety, type SafetyRefusal } from '../core/safety.js';
import type { SyncContext } from './SyncContext.js';
import { detectLocalChanges, type LocalChange } from './detectLocalChanges.js';
import { detectRemoteChanges } from './detectRemoteChanges.js';
import { listRemote } from './listRemote.js';
import { assertRootExists, isDirectory } from './moveDirectory.js';
import { layoutDocuments } from './runCycle.js';

export interface PullPlan {
  refused: SafetyRefusal | null;
  createFolders: string[];
  moveFolders: Array<{ from: string; to: string }>;
  /** Directories of folders gone from the space (removed when nothing else is left in them). */
  removeFolders: string[];
  /** New files. */
  create: string[];
  /** Files to bring up to date (only their changed blocks are rewritten). */
  update: string[];
  move: Array<{ from: string; to: string }>;
  /** Files moved to .spacesync/purged/. */
  purge: string[];
  /** Files changed locally: left as they are. */
  keep: Array<{ path: string; change: LocalChange }>;
  requests: number;
}

export async function describePull(ctx: SyncContext): Promise<PullPlan> {
  const before = ctx.client.stats().total;
  await assertRootExists(ctx.root);
  const snapshot = await listRemote(ctx);
  const records = ctx.journal.listDocuments();
  const byId = new Map(records.map((r) => [r.id, r]));
  const plan: PullPlan = { refused: null, createFolders: [], moveFolders: [], removeFolders: [], create: [], update: [], move: [], purge: [], keep: [], requests: 0 };
  const { changed, purged } = detectRemoteChanges(records, snapshot.documents);
  plan.refused = checkPullSafety({ known: records.length, listed: snapshot.documents.size, purged: purged.length, maxDeletePercent: ctx.settings.maxDeletePercent, force: ctx.settings.force });
  const local = await detectLocalChanges(ctx);
  for (const [id, change] of local) plan.keep.push({ path: byId.get(id)!.path, change });
  const layout = planLayout({ documents: layoutDocuments(snapshot, records), folders: snapshot.folders });

  for (const dir of Object.values(BUILTIN_DIRS)) if (!(await isDirectory(ctx.root, dir))) plan.createFolders.push(dir);
  const folderRecords = new Map(ctx.journal.listFolders().map((f) => [f.id, f]));
  for (const f of snapshot.folders) {
    const to = layout.folders.get(f.id)!;
    const rec = folderRecords.get(f.id);
    if (!rec) plan.createFolders.push(to);
    else if (rec.path !== to) plan.moveFolders.push({ from: rec.path, to });
  }
  for (const rec of folderRecords.values()) if (!snapshot.folders.some((f) => f.id === rec.id)) plan.removeFolders.push(rec.path);

  for (const [id] of snapshot.placements) {
    const to = layout.documents.get(id);
    const rec = byId.get(id);
    if (to === undefined || ctx.ignore(to)) continue;
    if (!rec) plan.create.push(to);
    else if (!local.has(id) && rec.path !== to) plan.move.push({ from: rec.path, to });
  }
  for (const id of changed) {
    const rec = byId.get(id)!;
    if (local.has(id)) continue;
    if (rec.fileHash === null) plan.create.push(layout.documents.get(id) ?? rec.path);
    else plan.update.push(layout.documents.get(id) ?? rec.path);
  }
  for (const id of purged) if (!(local.get(id) === 'edited')) plan.purge.push(byId.get(id)!.path);
  for (const list of [plan.createFolders, plan.removeFolders, plan.create, plan.update, plan.purge]) list.sort();
  plan.requests = ctx.client.stats().total - before;
  return plan;
}
