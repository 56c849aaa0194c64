// Folder-level decisions from the mirror's directories: a new directory is a new folder, a removed
// one a deleted folder, and a renamed (or moved) one — the API has no folder rename — is a new
// folder, its contents moved into it, and the old one deleted.
import { dirOfPath } from './fileName.js';

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

export interface FolderCreate { ref: string; name: string; parent: string | null; path: string }
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

export function decideFolders(input: FolderDecisionInput): FolderDecisions {
  const out: FolderDecisions = { creates: [], renames: [], moves: [], deletes: [], folderOfDir: new Map(), problems: [] };
  const localDirs = new Set(input.localDirs);
  const remoteById = new Map(input.remote.map((f) => [f.id, f]));
  const baseByPath = new Map(input.base.map((f) => [f.path, f]));
  for (const f of input.base) if (localDirs.has(f.path)) out.folderOfDir.set(f.path, f.id);

  // Directories nobody knows yet, shallowest first (a parent is created before its children).
  const fresh = new Set([...localDirs].filter((d) => !baseByPath.has(d)));
  const consumed = new Set<string>();

  // A folder whose directory is gone: renamed when most of its documents are now in one new directory.
  const gone = input.base.filter((f) => !localDirs.has(f.path)).sort((a, b) => a.path.length - b.path.length);
  const handled = new Set<string>();
  for (const f of gone) {
    if (handled.has(f.id)) continue;
    const remote = remoteById.get(f.id);
    if (!remote) {
      handled.add(f.id);
      continue; // gone on both sides
    }
    if (remote.name !== f.name || remote.parentId !== f.parentId) {
      handled.add(f.id); // the service changed it too: its place wins, the layout puts the directory back
      continue;
    }
    const votes = new Map<string, number>();
    for (const d of input.documents) {
      if (!d.basePath || !d.localPath || dirOfPath(d.basePath) !== f.path) continue;
      const dir = dirOfPath(d.localPath);
      if (fresh.has(dir) && !consumed.has(dir)) votes.set(dir, (votes.get(dir) ?? 0) + 1);
    }
    const best = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    const inFolder = input.documents.filter((d) => d.basePath && dirOfPath(d.basePath) === f.path).length;
    if (best && best[1] * 2 >= inFolder) {
      const to = best[0];
      consumed.add(to);
      if (nameOfDir(to) === nameOfDir(f.path)) {
        // Same name elsewhere: a move, which the API has (the folder keeps its id).
        out.folderOfDir.set(to, f.id);
        out.moves.push({ id: f.id, from: f.path, to, parent: parentFolder(dirOfPath(to)) });
        handled.add(f.id);
        for (const sub of input.base) {
          const moved = to + sub.path.slice(f.path.length);
          if (under(sub.path, f.path) && localDirs.has(moved)) {
            handled.add(sub.id);
            consumed.add(moved);
            out.folderOfDir.set(moved, sub.id);
          }
        }
        continue;
      }
      const ref = `${FOLDER_REF}${to}`;
      out.folderOfDir.set(to, ref);
      out.creates.push({ ref, name: nameOfDir(to), parent: parentFolder(dirOfPath(to)), path: to });
      out.renames.push({
        id: f.id, from: f.path, to, ref,
        documentIds: input.documents.filter((d) => d.remoteFolderId === f.id).map((d) => d.id),
        subfolderIds: input.remote.filter((s) => s.parentId === f.id).map((s) => s.id),
      });
      handled.add(f.id);
      // Its subfolders went along: same folders, under the new one.
      for (const sub of input.base) {
        if (!under(sub.path, f.path)) continue;
        const moved = to + sub.path.slice(f.path.length);
        if (localDirs.has(moved)) {
          handled.add(sub.id);
          consumed.add(moved);
          out.folderOfDir.set(moved, sub.id);
        }
      }
      continue;
    }
    handled.add(f.id);
    // Deleted in the mirror. Documents the service has there that the mirror never had would be
    // moved out by the service: keep the folder instead, and let the directory come back with them.
    const unknown = input.documents.filter((d) => d.remoteFolderId === f.id && !d.basePath);
    if (unknown.length > 0) {
      out.problems.push(`The folder "${f.path}" was deleted in the mirror, but the service has ${unknown.length} new document(s) in it; it is kept and its directory comes back.`);
      continue;
    }
    out.deletes.push({ id: f.id, path: f.path });
  }
  // A folder is deleted after its subfolders (deepest first).
  out.deletes.sort((a, b) => b.path.split('/').length - a.path.split('/').length);

  function parentFolder(dir: string): string | null {
    if (dir === '') return null;
    const known = out.folderOfDir.get(dir);
    if (known) return known;
    const base = baseByPath.get(dir);
    if (base && localDirs.has(dir)) return base.id;
    return `${FOLDER_REF}${dir}`;
  }

  for (const dir of [...fresh].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))) {
    if (consumed.has(dir)) continue;
    const ref = `${FOLDER_REF}${dir}`;
    out.folderOfDir.set(dir, ref);
    out.creates.push({ ref, name: nameOfDir(dir), parent: parentFolder(dirOfPath(dir)), path: dir });
  }
  // Creates run shallowest first so a parent's ref is known before its children need it.
  out.creates.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  return out;
}
