// Folder-level decisions from the mirror's directories: a new directory is a new folder, a removed
// one a deleted folder, and a renamed (or moved) one — the API has no folder rename — is a new
// folder, its contents moved into it, and the old one deleted.
import { dirOfPath } from '../files/fileName.js';

export interface FolderState {
  id: string;
  name: string;
  parentId: string | null;
  /** Its directory in the mirror (base: as last recorded). */
  path: string;
}

export interface FolderDecisionInput {
  /** The journal's folders. */
  base: readonly FolderState[];
  /** The service's folders now (name and parent; path unused). */
  remote: ReadonlyArray<Omit<FolderState, 'path'>>;
  /** Every user directory of the mirror now (not the built-in ones), `/`-separated. */
  localDirs: readonly string[];
  /** Documents: where the journal last had them, where the file is now, and the service's folder now. */
  documents: ReadonlyArray<{ id: string; basePath?: string; localPath?: string; remoteFolderId?: string | null }>;
}

export interface FolderCreate {
  ref: string;
  name: string;
  parent: string | null;
  path: string;
}
export interface FolderRename {
  /** The folder replaced. */
  id: string;
  from: string;
  to: string;
  /** The folder that takes its place (created by this plan). */
  ref: string;
  /** Every document the service has in the old folder, moved to the new one in one request. */
  documentIds: string[];
  /** Its direct subfolders, moved under the new one. */
  subfolderIds: string[];
}

export interface FolderDecisions {
  creates: FolderCreate[];
  renames: FolderRename[];
  /** A directory moved under another with its name unchanged: `PUT /folders/move` (parent null: to the top level). */
  moves: Array<{ id: string; from: string; to: string; parent: string | null }>;
  deletes: Array<{ id: string; path: string }>;
  /** Folder of each directory, for the documents' destinations: an id, or a ref of a folder created now. */
  folderOfDir: Map<string, string>;
  problems: string[];
}

export const FOLDER_REF = '@ref:folder:';

const nameOfDir = (dir: string) => dir.slice(dir.lastIndexOf('/') + 1);
const under = (path: string, dir: string) => path.startsWith(`${dir}/`);

/** What one decision pass works on: the input indexed, what it decided so far, and which directories and folders are spoken for. */
interface FolderPass {
  input: FolderDecisionInput;
  out: FolderDecisions;
  localDirs: Set<string>;
  remoteById: Map<string, Omit<FolderState, 'path'>>;
  baseByPath: Map<string, FolderState>;
  /** Directories nobody knows yet. */
  fresh: Set<string>;
  /** Fresh directories already taken as a known folder's new place. */
  consumed: Set<string>;
  /** Known folders already decided. */
  handled: Set<string>;
}

export function decideFolders(input: FolderDecisionInput): FolderDecisions {
  const s = startPass(input);
  // A folder whose directory is gone, shallowest first: renamed when most of its documents are now in one new directory.
  const gone = input.base.filter((f) => !s.localDirs.has(f.path)).sort((a, b) => a.path.length - b.path.length);
  for (const f of gone) if (!s.handled.has(f.id)) decideGoneFolder(s, f);
  // A folder is deleted after its subfolders (deepest first).
  s.out.deletes.sort((a, b) => b.path.split('/').length - a.path.split('/').length);
  createFreshFolders(s);
  placeUnderParents(s);
  return s.out;
}

/** Invariant: a known folder whose directory is still there keeps its id for that directory. */
function startPass(input: FolderDecisionInput): FolderPass {
  const localDirs = new Set(input.localDirs);
  const baseByPath = new Map(input.base.map((f) => [f.path, f]));
  const s: FolderPass = {
    input,
    localDirs,
    baseByPath,
    out: { creates: [], renames: [], moves: [], deletes: [], folderOfDir: new Map(), problems: [] },
    remoteById: new Map(input.remote.map((f) => [f.id, f])),
    fresh: new Set([...localDirs].filter((d) => !baseByPath.has(d))),
    consumed: new Set(),
    handled: new Set(),
  };
  for (const f of input.base) if (localDirs.has(f.path)) s.out.folderOfDir.set(f.path, f.id);
  return s;
}

/** Invariant: each gone folder ends decided exactly once: moved, renamed, deleted, kept, or left to the service's side. */
function decideGoneFolder(s: FolderPass, f: FolderState): void {
  s.handled.add(f.id);
  const remote = s.remoteById.get(f.id);
  if (!remote) return; // gone on both sides
  if (remote.name !== f.name || remote.parentId !== f.parentId) return; // the service changed it too: its place wins, the layout puts the directory back
  const to = newDirectoryOf(s, f);
  if (to !== undefined) {
    s.consumed.add(to);
    if (nameOfDir(to) === nameOfDir(f.path)) moveFolder(s, f, to);
    else renameFolder(s, f, to);
    carrySubfolders(s, f, to);
    return;
  }
  deleteFolder(s, f);
}

/** Invariant: a fresh directory is the new place of at most one gone folder, and only of one holding at least half its documents. */
function newDirectoryOf(s: FolderPass, f: FolderState): string | undefined {
  const votes = new Map<string, number>();
  for (const d of s.input.documents) {
    if (!d.basePath || !d.localPath || dirOfPath(d.basePath) !== f.path) continue;
    const dir = dirOfPath(d.localPath);
    if (s.fresh.has(dir) && !s.consumed.has(dir)) votes.set(dir, (votes.get(dir) ?? 0) + 1);
  }
  const best = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  const inFolder = s.input.documents.filter((d) => d.basePath && dirOfPath(d.basePath) === f.path).length;
  return best && best[1] * 2 >= inFolder ? best[0] : undefined;
}

/** Invariant: the same name elsewhere is a move, which the API has: the folder keeps its id. */
function moveFolder(s: FolderPass, f: FolderState, to: string): void {
  s.out.folderOfDir.set(to, f.id);
  s.out.moves.push({ id: f.id, from: f.path, to, parent: null }); // its parent: placeUnderParents
}

/** Invariant: a rename (the API has none) creates the new folder and moves every document and subfolder the service has in the old one. */
function renameFolder(s: FolderPass, f: FolderState, to: string): void {
  const ref = `${FOLDER_REF}${to}`;
  s.out.folderOfDir.set(to, ref);
  s.out.creates.push({ ref, name: nameOfDir(to), parent: null, path: to }); // its parent: placeUnderParents
  s.out.renames.push({
    id: f.id,
    from: f.path,
    to,
    ref,
    documentIds: s.input.documents.filter((d) => d.remoteFolderId === f.id).map((d) => d.id),
    subfolderIds: s.input.remote.filter((sub) => sub.parentId === f.id).map((sub) => sub.id),
  });
}

/** Invariant: subfolders that went along with a moved or renamed folder stay the same folders, under its new place. */
function carrySubfolders(s: FolderPass, f: FolderState, to: string): void {
  for (const sub of s.input.base) {
    if (!under(sub.path, f.path)) continue;
    const moved = to + sub.path.slice(f.path.length);
    if (s.localDirs.has(moved)) {
      s.handled.add(sub.id);
      s.consumed.add(moved);
      s.out.folderOfDir.set(moved, sub.id);
    }
  }
}

/**
 * Invariant: a folder is deleted only when the mirror held all the service has in it. Documents the
 * service has there that the mirror never had would be moved out by the service: the folder is kept
 * instead, and its directory comes back with them.
 */
function deleteFolder(s: FolderPass, f: FolderState): void {
  const unknown = s.input.documents.filter((d) => d.remoteFolderId === f.id && !d.basePath);
  if (unknown.length > 0) {
    s.out.problems.push(
      `The folder "${f.path}" was deleted in the mirror, but the service has ${unknown.length} new document(s) in it; it is kept and its directory comes back.`,
    );
    return;
  }
  s.out.deletes.push({ id: f.id, path: f.path });
}

/**
 * Invariant: every move and create names its parent as decided once every directory has its folder.
 * Decided earlier, a folder moved into a directory that is itself another folder's new place (Alpha →
 * Gamma/Alpha while Beta/Gamma → Gamma) would name a folder created for "Gamma", which nothing creates.
 */
function placeUnderParents(s: FolderPass): void {
  for (const m of s.out.moves) m.parent = parentFolder(s, dirOfPath(m.to));
  for (const c of s.out.creates) c.parent = parentFolder(s, dirOfPath(c.path));
}

/** Invariant: a directory's folder is the one decided for it, else the known one there, else the ref of the folder created for it. */
function parentFolder(s: FolderPass, dir: string): string | null {
  if (dir === '') return null;
  const known = s.out.folderOfDir.get(dir);
  if (known) return known;
  const base = s.baseByPath.get(dir);
  if (base && s.localDirs.has(dir)) return base.id;
  return `${FOLDER_REF}${dir}`;
}

/** Invariant: creates run shallowest first, so a parent's ref is known before its children need it. */
function createFreshFolders(s: FolderPass): void {
  for (const dir of [...s.fresh].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))) {
    if (s.consumed.has(dir)) continue;
    const ref = `${FOLDER_REF}${dir}`;
    s.out.folderOfDir.set(dir, ref);
    s.out.creates.push({ ref, name: nameOfDir(dir), parent: null, path: dir }); // its parent: placeUnderParents
  }
  s.out.creates.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
}
