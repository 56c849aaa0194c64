// Watches the mirror and reports, in batches, the net change of each document file and folder once
// the tree has been quiet for `debounceMs` and a file's size has held for `stabilityMs`. Net change
// is decided by looking at the disk when the batch closes, so every editor's way of saving (in
// place, temp-then-rename, delete-and-recreate, backup-rename) is one change.
//
// One native watch per folder, none per file: a folder's watch already names the entry that was
// created, written, renamed or removed inside it (inotify on Linux, FSEvents on macOS). Folders
// that appear are watched then read (so nothing created in between is missed); folders that go
// take their watches and their files with them.
import { promises as fsp, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Ignore } from './createIgnore.js';
import { hashText } from './hashText.js';
import type { OwnWrites } from './OwnWrites.js';
import { isDocumentFile } from './scanMirror.js';

export interface MirrorChanges {
  /** Document files that appeared. */
  added: string[];
  /** Document files whose content may have changed (compare hashes to know). */
  changed: string[];
  removed: string[];
  addedDirs: string[];
  removedDirs: string[];
}

export interface WatchMirrorOptions {
  ignore: Ignore;
  /** The tree must be quiet this long before a batch closes. */
  debounceMs: number;
  /** A file's size, mtime and inode must hold this long before it is reported (a slow writer). */
  stabilityMs: number;
  onChanges: (changes: MirrorChanges) => void;
  /** A folder could not be watched (or its watch failed): changes there are seen only by a full scan. */
  onError?: (error: Error) => void;
  /** Events whose result the daemon wrote itself are dropped. */
  ownWrites?: OwnWrites;
}

export interface MirrorWatcher {
  /** Resolves once the initial tree is known; changes after it are reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface Seen {
  size: number;
  mtimeMs: number;
  ino: number;
  /** When this exact state was first seen. */
  since: number;
}

interface DirWatch {
  handle: FSWatcher;
  /** The folder watched: a folder replaced at the same path is a new one. */
  ino: number;
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/** What to do about a folder that could not be watched. */
function watchHint(code: string | undefined): string {
  if (code === 'ENOSPC') return "Raise the system's limit of watched folders (the fs.inotify.max_user_watches sysctl), or ignore folders you do not sync.";
  if (code === 'EMFILE' || code === 'ENFILE') return 'Raise the limit of open files (ulimit -n), or ignore folders you do not sync.';
  return 'Check the folder and its permissions.';
}

export function watchMirror(root: string, opts: WatchMirrorOptions): MirrorWatcher {
  const { ignore, debounceMs, stabilityMs, onChanges, ownWrites } = opts;
  const onError = opts.onError ?? (() => undefined);
  const pollMs = Math.max(10, Math.min(100, Math.floor(stabilityMs / 2)));
  const knownFiles = new Set<string>();
  /** Folders below the root (the root itself is '' and always there). */
  const knownDirs = new Set<string>();
  const watches = new Map<string, DirWatch>();
  /** Files touched since they were last reported, with the last state seen (null: not looked at yet). */
  const pendingFiles = new Map<string, Seen | null>();
  /** Entries named by an event, whatever they are (a folder, a file, nothing any more). */
  const pendingEntries = new Set<string>();
  /** Folders whose events may have been lost (no name given, the watch failed): read again. */
  const stale = new Set<string>();
  /** Folders that could not be watched during one walk: reported together. */
  let unwatched: Array<{ rel: string; error: NodeJS.ErrnoException }> = [];
  let isReady = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;
  let flushAgain = false;
  let lastEventAt = 0;

  const abs = (rel: string) => (rel === '' ? root : path.join(root, ...rel.split('/')));
  const isUnder = (rel: string, dir: string) => dir === '' || rel.startsWith(`${dir}/`);

  const schedule = (ms: number) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), ms);
  };

  const touch = (rel: string) => {
    if (closed) return;
    const asFile = isDocumentFile(rel) && !ignore(rel);
    if (asFile) pendingFiles.set(rel, null);
    if (asFile || !ignore(rel, true)) pendingEntries.add(rel);
    else return;
    lastEventAt = Date.now();
    schedule(debounceMs);
  };

  const markStale = (rel: string) => {
    stale.add(rel);
    pendingEntries.add(rel);
    lastEventAt = Date.now();
    schedule(debounceMs);
  };

  const unwatch = (rel: string) => {
    watches.get(rel)?.handle.close();
    watches.delete(rel);
  };

  /** Drops the watches at and under `rel`; what was known there is judged again by the disk. */
  const forget = (rel: string) => {
    for (const dir of [...watches.keys()]) if (dir === rel || isUnder(dir, rel)) unwatch(dir);
    for (const file of knownFiles) if (isUnder(file, rel)) pendingFiles.set(file, null);
    for (const dir of knownDirs) if (isUnder(dir, rel)) pendingEntries.add(dir);
  };

  /**
   * Watches the folder, then reads it (an entry created in between is seen by one or the other),
   * and so on down. Before `ready` it learns the tree; after, what it finds is news (`report`):
   * folders are added, files go to be judged like any touched file.
   */
  async function watchTree(rel: string, report: MirrorChanges | null): Promise<void> {
    const st = await fsp.lstat(abs(rel)).catch(() => null);
    if (closed || !st?.isDirectory()) return;
    try {
      const own = path.basename(abs(rel));
      const handle = watch(abs(rel), (_event, name) => {
        // The folder itself removed or moved away names itself: whatever is at its path later is
        // another folder, to be read and watched anew (a new folder may reuse the old inode number).
        if (name === null || (name === own && rel !== '')) markStale(rel);
        if (name !== null) touch(join(rel, name));
      });
      handle.on('error', (e) => {
        if (watches.get(rel)?.handle !== handle) return;
        unwatch(rel);
        onError(new Error(`The watch of the folder "${rel || '.'}" in ${root} failed (${e.message}); the folder is read again and watched anew.`));
        markStale(rel);
      });
      watches.set(rel, { handle, ino: st.ino });
    } catch (e) {
      unwatched.push({ rel, error: e as NodeJS.ErrnoException });
    }
    const entries = await fsp.readdir(abs(rel), { withFileTypes: true }).catch(() => null);
    if (closed || entries === null) return; // gone meanwhile: its parent's event says so
    for (const e of entries) {
      const child = join(rel, e.name);
      if (e.isDirectory()) {
        if (ignore(child, true)) continue;
        if (!knownDirs.has(child)) {
          knownDirs.add(child);
          report?.addedDirs.push(child);
        }
        await watchTree(child, report);
      } else if (e.isFile() && isDocumentFile(child) && !ignore(child)) {
        // Symbolic links are not documents (scanMirror skips them too).
        if (!report) knownFiles.add(child);
        else if (!pendingFiles.has(child)) pendingFiles.set(child, null);
      }
    }
  }

  const reportUnwatched = () => {
    if (unwatched.length === 0) return;
    const [first] = unwatched;
    const n = unwatched.length;
    unwatched = [];
    onError(
      new Error(
        `Could not watch ${n === 1 ? 'the folder' : `${n} folders, the first`} "${first!.rel || '.'}" in ${root} for changes (${first!.error.message}); edits there are seen only by the next full scan. ${watchHint(first!.error.code)}`,
      ),
    );
  };

  const ready = (async () => {
    try {
      await watchTree('', null);
    } catch (e) {
      onError(e as Error);
    }
    reportUnwatched();
    isReady = true;
  })();

  /** The file's state now, or null when there is no regular file at that path. */
  const look = async (rel: string): Promise<Omit<Seen, 'since'> | null> => {
    const st = await fsp.lstat(abs(rel)).catch(() => null);
    return st?.isFile() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
  };

  /** Whether the file's current bytes (or its absence) are the daemon's own doing. */
  const isOwn = async (rel: string, exists: boolean): Promise<boolean> => {
    if (!ownWrites) return false;
    if (!exists) return ownWrites.consume(rel, null);
    const bytes = await fsp.readFile(abs(rel)).catch(() => null);
    return bytes !== null && ownWrites.consume(rel, hashText(bytes));
  };

  async function flush(): Promise<void> {
    if (closed) return;
    if (flushing || !isReady) {
      if (flushing) flushAgain = true;
      else schedule(debounceMs);
      return;
    }
    const quietFor = Date.now() - lastEventAt;
    if (quietFor < debounceMs) {
      schedule(debounceMs - quietFor);
      return;
    }
    flushing = true;
    const changes: MirrorChanges = { added: [], changed: [], removed: [], addedDirs: [], removedDirs: [] };
    try {
      // Folders first: a new one is watched and read (its files join the files to judge), a gone
      // one takes its watches and files with it, one replaced at the same path is read anew.
      for (const rel of pendingEntries) {
        pendingEntries.delete(rel);
        const st = await fsp.lstat(abs(rel)).catch(() => null);
        if (closed) return;
        if (st?.isDirectory()) {
          if (rel !== '' && ignore(rel, true)) continue;
          const watched = watches.get(rel);
          if (watched && watched.ino === st.ino && !stale.has(rel)) continue;
          stale.delete(rel);
          forget(rel);
          if (rel !== '' && !knownDirs.has(rel)) {
            knownDirs.add(rel);
            changes.addedDirs.push(rel);
          }
          await watchTree(rel, changes);
        } else if (knownDirs.has(rel)) {
          stale.delete(rel);
          knownDirs.delete(rel);
          changes.removedDirs.push(rel);
          forget(rel);
        }
      }
      reportUnwatched();
      const now = Date.now();
      for (const [rel, seen] of [...pendingFiles]) {
        const state = await look(rel);
        if (state !== null) {
          const same = seen !== null && seen.size === state.size && seen.mtimeMs === state.mtimeMs && seen.ino === state.ino;
          if (!same) {
            pendingFiles.set(rel, { ...state, since: now });
            continue;
          }
          if (now - seen.since < stabilityMs) continue;
        }
        // An event may have re-marked the path while we looked: keep it for the next round.
        if (pendingFiles.get(rel) !== seen) continue;
        pendingFiles.delete(rel);
        const existed = knownFiles.has(rel);
        if (state === null) knownFiles.delete(rel);
        else knownFiles.add(rel);
        // A file that came and went between batches is nobody's news, unless the daemon wrote it (a
        // pull): the journal knows that file, so its removal is the user's, and must not wait for a scan.
        if (state === null && !existed && !ownWrites?.has(rel)) continue;
        if (await isOwn(rel, state !== null)) continue;
        (state === null ? changes.removed : existed ? changes.changed : changes.added).push(rel);
      }
    } catch (e) {
      onError(e as Error);
    } finally {
      flushing = false;
    }
    if (closed) return;
    const total = changes.added.length + changes.changed.length + changes.removed.length + changes.addedDirs.length + changes.removedDirs.length;
    if (total > 0) {
      for (const list of Object.values(changes) as string[][]) list.sort(byPath);
      try {
        onChanges(changes);
      } catch (e) {
        onError(e as Error);
      }
    }
    if (flushAgain || pendingFiles.size > 0 || pendingEntries.size > 0) {
      flushAgain = false;
      schedule(pollMs); // the next round waits for quiet again by itself
    }
  }

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      await ready;
      for (const rel of [...watches.keys()]) unwatch(rel);
    },
  };
}
