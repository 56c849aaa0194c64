// Watches the mirror (chokidar) and reports, in batches, the net change of each document file and
// folder once the tree has been quiet for `debounceMs` and a file's size has held for `stabilityMs`.
// Net change is decided by looking at the disk when the batch closes, so every editor's way of
// saving (in place, temp-then-rename, delete-and-recreate, backup-rename) is one change.
import { lstatSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';
import type { Ignore } from './createIgnore.js';
import { hashText } from './hashText.js';
import type { OwnWrites } from './OwnWrites.js';
import { relativeToRoot } from './resolveInRoot.js';
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

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function watchMirror(root: string, opts: WatchMirrorOptions): MirrorWatcher {
  const { ignore, debounceMs, stabilityMs, onChanges, ownWrites } = opts;
  const onError = opts.onError ?? (() => undefined);
  const pollMs = Math.max(10, Math.min(100, Math.floor(stabilityMs / 2)));
  const knownFiles = new Set<string>();
  const knownDirs = new Set<string>();
  /** Files touched since they were last reported, with the last state seen (null: not looked at yet). */
  const pendingFiles = new Map<string, Seen | null>();
  const pendingDirs = new Set<string>();
  let isReady = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let flushing = false;
  let flushAgain = false;
  let lastEventAt = 0;

  const schedule = (ms: number) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), ms);
  };

  const watcher = watch(root, {
    ignoreInitial: false,
    followSymlinks: false,
    ignored: (p: string, stats?: { isDirectory(): boolean }) => {
      const rel = relativeToRoot(root, p);
      return rel !== null && ignore(rel, stats?.isDirectory() ?? false);
    },
  });

  const onFile = (p: string) => {
    const rel = relativeToRoot(root, p);
    if (rel === null || !isDocumentFile(rel) || ignore(rel)) return;
    if (!isReady) {
      // Symbolic links are not documents (scanMirror skips them too).
      if (lstatSync(p, { throwIfNoEntry: false })?.isFile()) knownFiles.add(rel);
      return;
    }
    pendingFiles.set(rel, null);
    lastEventAt = Date.now();
    schedule(debounceMs);
  };
  const onDir = (p: string) => {
    const rel = relativeToRoot(root, p);
    if (rel === null || ignore(rel, true)) return;
    if (!isReady) {
      knownDirs.add(rel);
      return;
    }
    pendingDirs.add(rel);
    lastEventAt = Date.now();
    schedule(debounceMs);
  };
  watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
  watcher.on('addDir', onDir).on('unlinkDir', onDir);
  watcher.on('error', (e) => onError(e instanceof Error ? e : new Error(String(e))));

  const ready = new Promise<void>((resolve) => {
    watcher.once('ready', () => {
      isReady = true;
      resolve();
    });
  });

  /** The file's state now, or null when there is no regular file at that path. */
  const look = async (rel: string): Promise<Omit<Seen, 'since'> | null> => {
    const st = await fsp.lstat(path.join(root, ...rel.split('/'))).catch(() => null);
    return st?.isFile() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
  };

  /** Whether the file's current bytes (or its absence) are the daemon's own doing. */
  const isOwn = async (rel: string, exists: boolean): Promise<boolean> => {
    if (!ownWrites) return false;
    if (!exists) return ownWrites.consume(rel, null);
    const bytes = await fsp.readFile(path.join(root, ...rel.split('/'))).catch(() => null);
    return bytes !== null && ownWrites.consume(rel, hashText(bytes));
  };

  async function flush(): Promise<void> {
    if (closed) return;
    if (flushing) {
      flushAgain = true;
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
      for (const rel of [...pendingDirs]) {
        pendingDirs.delete(rel);
        const st = await fsp.lstat(path.join(root, ...rel.split('/'))).catch(() => null);
        const exists = st?.isDirectory() ?? false;
        if (exists && !knownDirs.has(rel)) {
          knownDirs.add(rel);
          changes.addedDirs.push(rel);
        } else if (!exists && knownDirs.has(rel)) {
          knownDirs.delete(rel);
          changes.removedDirs.push(rel);
        }
      }
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
        if (state === null && !existed) continue; // a file that came and went between batches
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
    if (flushAgain || pendingFiles.size > 0 || pendingDirs.size > 0) {
      flushAgain = false;
      schedule(pollMs); // the next round waits for quiet again by itself
    }
  }

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
