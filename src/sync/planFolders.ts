// Folder changes of the mirror as requests. The API has no folder rename: a directory renamed is a
// new folder, its documents and subfolders moved into it, and the old folder deleted; a directory
// moved under another parent keeping its name is one `PUT /folders/move` (the folder keeps its id).
// A new directory is `POST /folders` (parents first); a directory gone is `DELETE /folders`.
import { dirOfPath } from '../core/fileName.js';
import { locationOfDir } from '../core/layout.js';
import type { FolderRecord } from '../journal/index.js';
import type { PushStep } from './PushPlan.js';
import { FOLDER_REF } from './pushRequests.js';
import type { ChangedFile } from './scanLocal.js';
import type { Placement } from './remoteTypes.js';

export interface FolderPlan {
  /** Steps that go before the documents' (create, move) and after them (delete). */
  before: PushStep[];
  after: PushStep[];
  /** Folder id or ref → its directory once the steps are done. */
  folderPaths: Map<string, string>;
  /** Documents the space holds in a renamed folder that no file names: moved with it (folder ref → ids). */
  carried: Map<string, string[]>;
  problems: Array<{ path: string; message: string }>;
}

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const depth = (p: string) => p.split('/').length;
const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

export function planFolders(input: {
  folders: readonly FolderRecord[];
  addedDirs: readonly string[];
  removedDirs: readonly FolderRecord[];
  changed: readonly ChangedFile[];
  /** Where the space holds each document, when known (a full listing). */
  placements?: ReadonlyMap<string, Placement>;
}): FolderPlan {
  const plan: FolderPlan = { before: [], after: [], folderPaths: new Map(input.folders.map((f) => [f.id, f.path])), carried: new Map(), problems: [] };
  const added = new Set(input.addedDirs);
  const removed = new Map(input.removedDirs.map((f) => [f.id, f]));
  let n = 0;
  const newRefs = new Map<string, string>(); // dir → ref
  const moves: Extract<PushStep, { kind: 'moveFolders' }>['moves'] = [];
  const renamedFrom: FolderRecord[] = [];

  /** The id (or ref) of the folder a directory stands for after the steps; null for the top; undefined when it cannot hold folders. */
  const folderAt = (dir: string): string | null | undefined => {
    if (dir === '') return null;
    const ref = newRefs.get(dir);
    if (ref) return ref;
    const at = locationOfDir(dir, plan.folderPaths);
    return at?.location === 'folder' ? at.folderId! : undefined;
  };
  const reroot = (from: string, to: string) => {
    for (const [id, p] of plan.folderPaths) if (under(p, from)) plan.folderPaths.set(id, to + p.slice(from.length));
  };

  // Renames and moves: a folder gone whose documents' files all went into one new directory.
  for (const f of [...removed.values()].sort((a, b) => depth(a.path) - depth(b.path))) {
    if (!removed.has(f.id)) continue;
    const dirs = new Map<string, number>();
    for (const c of input.changed) {
      if (c.moved && c.record.folderId === f.id) dirs.set(dirOfPath(c.local.path), (dirs.get(dirOfPath(c.local.path)) ?? 0) + 1);
    }
    const [best] = [...dirs].sort((a, b) => b[1] - a[1]);
    if (!best || !added.has(best[0]) || best[1] * 2 < [...dirs.values()].reduce((s, k) => s + k, 0)) continue;
    const to = best[0];
    const parent = folderAt(dirOfPath(to));
    if (parent === undefined) continue;
    // Everything under the old directory travels with it.
    for (const g of input.folders) {
      if (!under(g.path, f.path)) continue;
      removed.delete(g.id);
      added.delete(to + g.path.slice(f.path.length));
    }
    if (nameOf(to) === f.name || nameOf(to) === nameOf(f.path)) {
      moves.push({ id: f.id, name: f.name, parent, from: f.path, to });
      reroot(f.path, to);
      continue;
    }
    const ref = `${FOLDER_REF}${++n}`;
    newRefs.set(to, ref);
    added.add(to);
    renamedFrom.push(f);
    for (const g of input.folders) {
      if (g.parentId === f.id) moves.push({ id: g.id, name: g.name, parent: ref, from: g.path, to: to + g.path.slice(f.path.length) });
    }
    reroot(f.path, to);
    plan.folderPaths.delete(f.id);
    plan.folderPaths.set(ref, to);
    const known = new Set(input.changed.filter((c) => c.record.folderId === f.id).map((c) => c.record.id));
    const carried = [...(input.placements ?? [])].filter(([id, p]) => p.folderId === f.id && !known.has(id)).map(([id]) => id);
    if (carried.length > 0) plan.carried.set(ref, carried);
  }

  // New directories, one request per depth (a parent's id comes from the request before).
  const byDepth = new Map<number, string[]>();
  for (const d of [...added].sort()) {
    if (!newRefs.has(d)) newRefs.set(d, `${FOLDER_REF}${++n}`);
    byDepth.set(depth(d), [...(byDepth.get(depth(d)) ?? []), d]);
  }
  for (const k of [...byDepth.keys()].sort((a, b) => a - b)) {
    const dirs: string[] = [];
    const parents: Array<string | null> = [];
    for (const d of byDepth.get(k)!) {
      const parent = folderAt(dirOfPath(d));
      if (parent === undefined) {
        plan.problems.push({ path: d, message: `The folder "${d}" is inside ${dirOfPath(d)}/, where the space has no folders, so it is not created. Move it to the top of the mirror or into one of your folders.` });
        newRefs.delete(d);
        continue;
      }
      dirs.push(d);
      parents.push(parent);
      plan.folderPaths.set(newRefs.get(d)!, d);
    }
    if (dirs.length === 0) continue;
    plan.before.push({
      kind: 'createFolders', parents,
      request: { op: 'POST /folders', refs: dirs.map((d) => newRefs.get(d)!), paths: dirs, folders: dirs.map((d, i) => ({ name: nameOf(d), parent: parents[i]! })) },
    });
  }

  // Moves, grouped by destination.
  const byParent = new Map<string, typeof moves>();
  for (const m of moves) byParent.set(m.parent ?? '', [...(byParent.get(m.parent ?? '') ?? []), m]);
  for (const [parent, list] of byParent) {
    plan.before.push({
      kind: 'moveFolders', moves: list,
      request: { op: 'PUT /folders/move', folders: list.map((m) => m.id), paths: list.map((m) => m.to), destination: parent === '' ? 'root' : { parentFolderId: parent } },
    });
  }

  // Folders gone, and the old folders of renames (empty by then), deepest first.
  const gone = [...removed.values(), ...renamedFrom].sort((a, b) => depth(b.path) - depth(a.path));
  if (gone.length > 0) plan.after.push({ kind: 'deleteFolders', records: gone, request: { op: 'DELETE /folders', folders: gone.map((f) => f.id), paths: gone.map((f) => f.path) } });
  return plan;
}
