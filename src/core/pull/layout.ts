// The whole mirror layout: where every document and folder of the space lives on disk. A pure
// function of the space, so every machine computes the same names, and older items keep theirs.
import { ASSETS_SUFFIX, collisionKey, fileStem, stemOfPath, suffixedStem } from '../files/fileName.js';
import type { DocLocation } from '../types.js';
import { STATE_DIR } from '../../stateDir.js';
import { TASKS_DIR } from '../tasks/taskFiles.js';

export interface LayoutDocument {
  id: string;
  title: string;
  location: DocLocation;
  /** The user folder, when location is `folder`. */
  folderId?: string | null;
  /** `YYYY-MM-DD`, for daily notes. */
  dailyNoteDate?: string | null;
  /** ISO timestamp; the earliest document keeps the plain name in a collision. */
  createdAt?: string | null;
}

export interface LayoutFolder {
  id: string;
  name: string;
  /** null = a top-level folder. */
  parentId: string | null;
  createdAt?: string | null;
}

export interface Layout {
  /** document id → relative path (`Projects/Roadmap.md`), `/`-separated. */
  documents: Map<string, string>;
  /** folder id → relative directory path (`Projects/Sub`). */
  folders: Map<string, string>;
}

/** The built-in locations' directories at the root of the mirror. */
export const BUILTIN_DIRS = {
  unsorted: 'Unsorted',
  templates: 'Templates',
  trash: 'Trash',
  daily_notes: 'Daily Notes',
} as const satisfies Record<Exclude<DocLocation, 'folder'>, string>;

export { STATE_DIR };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Creation order decides who keeps the plain name: earliest createdAt (missing ones last), then id. */
function byAge(a: { createdAt?: string | null; id: string }, b: { createdAt?: string | null; id: string }): number {
  const ca = a.createdAt ?? '\uffff';
  const cb = b.createdAt ?? '\uffff';
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The short, stable suffix of an id: its first 8 letters and digits. */
export function idSuffix(id: string): string {
  const short = id.replace(/[^A-Za-z0-9]/g, '').slice(0, 8);
  return short === '' ? fileStem(id) : short;
}

/**
 * Claims a name in one directory: the plain stem, else `stem (<8 of id>)`, else `stem (<whole id>)`,
 * else a counter. `ext` is `.md` for documents and `` for folders; they share one namespace.
 */
function claim(taken: Set<string>, stem: string, id: string, ext: string): string {
  const candidates = [stem, suffixedStem(stem, idSuffix(id)), suffixedStem(stem, fileStem(id))];
  for (const c of candidates) {
    if (!taken.has(collisionKey(c + ext))) {
      taken.add(collisionKey(c + ext));
      return c + ext;
    }
  }
  for (let n = 2; ; n++) {
    const c = suffixedStem(stem, `${fileStem(id)} ${n}`);
    if (!taken.has(collisionKey(c + ext))) {
      taken.add(collisionKey(c + ext));
      return c + ext;
    }
  }
}

export function planLayout(input: { documents: readonly LayoutDocument[]; folders: readonly LayoutFolder[] }): Layout {
  const folderById = new Map(input.folders.filter((f) => !(f.id in BUILTIN_DIRS)).map((f) => [f.id, f]));

  // A parent that is unknown, built-in, or part of a cycle makes the folder top-level.
  const parentOf = (f: LayoutFolder): string | null => {
    if (f.parentId === null || !folderById.has(f.parentId)) return null;
    const seen = new Set([f.id]);
    for (let p: string | null = f.parentId; p !== null; p = folderById.get(p)?.parentId ?? null) {
      if (seen.has(p) || !folderById.has(p)) return null;
      seen.add(p);
    }
    return f.parentId;
  };
  const childFolders = new Map<string | null, LayoutFolder[]>();
  for (const f of folderById.values()) {
    const p = parentOf(f);
    const list = childFolders.get(p) ?? [];
    list.push(f);
    childFolders.set(p, list);
  }

  const folders = new Map<string, string>();
  /** Names claimed per directory path (collision keys), folders first so a document never shadows a directory. */
  const takenIn = new Map<string, Set<string>>();
  const taken = (dir: string): Set<string> => {
    let s = takenIn.get(dir);
    if (!s) takenIn.set(dir, (s = new Set()));
    return s;
  };
  const root = taken('');
  // The task files' directory is reserved too: a space folder of that name takes its id's suffix.
  for (const name of [...Object.values(BUILTIN_DIRS), STATE_DIR, TASKS_DIR]) root.add(collisionKey(name));

  const placeFolders = (parent: string | null, dir: string) => {
    for (const f of (childFolders.get(parent) ?? []).sort(byAge)) {
      // A name like a document's assets folder (`Roadmap.assets`) is one the mirror ignores: such a
      // folder takes its id's suffix, or its documents would be in no file.
      const stem = fileStem(f.name);
      const name = claim(taken(dir), stem.endsWith(ASSETS_SUFFIX) ? suffixedStem(stem, idSuffix(f.id)) : stem, f.id, '');
      const path = dir === '' ? name : `${dir}/${name}`;
      folders.set(f.id, path);
      placeFolders(f.id, path);
    }
  };
  placeFolders(null, '');

  const documents = new Map<string, string>();
  const dirOf = (d: LayoutDocument): string => {
    if (d.location === 'folder') return (d.folderId && folders.get(d.folderId)) || BUILTIN_DIRS.unsorted;
    return BUILTIN_DIRS[d.location];
  };
  const stemOf = (d: LayoutDocument): string =>
    d.location === 'daily_notes' && d.dailyNoteDate && DATE.test(d.dailyNoteDate) ? d.dailyNoteDate : fileStem(d.title);

  for (const d of [...input.documents].sort(byAge)) {
    const dir = dirOf(d);
    documents.set(d.id, `${dir}/${claim(taken(dir), stemOf(d), d.id, '.md')}`);
  }
  return { documents, folders };
}

/**
 * Whether the front matter must carry the title: when the file name cannot hold it exactly.
 * Daily notes are named by date and their title is the service's, so they never carry one.
 */
export function needsTitle(title: string, relPath: string): boolean {
  if (relPath.startsWith(`${BUILTIN_DIRS.daily_notes}/`)) return false;
  return stemOfPath(relPath) !== title;
}

/** The location a directory of the mirror stands for; undefined for the root or a directory that is no folder yet. */
export function locationOfDir(dir: string, folderPaths: ReadonlyMap<string, string>): { location: DocLocation; folderId?: string } | undefined {
  for (const [location, name] of Object.entries(BUILTIN_DIRS)) {
    if (collisionKey(dir) === collisionKey(name)) return { location: location as DocLocation };
  }
  for (const [id, path] of folderPaths) if (path === dir) return { location: 'folder', folderId: id };
  return undefined;
}
