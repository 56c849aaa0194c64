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
import { hashText } from './readMirrorFile.js';
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
const isUnder = (rel: string, dir: string) => dir === '' || rel.startsWith(`${dir}/`);

/** What to do about a folder that could not be watched. */
function watchHint(code: string | undefined): string {
  if (code === 'ENOSPC') return "Raise the system's limit of watched folders (the fs.inotify.max_user_watches sysctl), or ignore folders you do not sync.";
  if (code === 'EMFILE' || code === 'ENFILE') return 'Raise the limit of open files (ulimit -n), or ignore folders you do not sync.';
  return 'Check the folder and its permissions.';
}

export function watchMirror(root: string, opts: WatchMirrorOptions): MirrorWatcher {
  const w = new TreeWatch(root, opts);
  return { ready: w.ready, close: () => w.close() };
}

/** The watches of one tree, what is known of it, and what was touched since the last batch. */
class TreeWatch {
  readonly ready: Promise<void>;
  private readonly onError: (error: Error) => void;
  private readonly pollMs: number;
  private readonly knownFiles = new Set<string>();
  /** Folders below the root (the root itself is '' and always there). */
  private readonly knownDirs = new Set<string>();
  private readonly watches = new Map<string, DirWatch>();
  /** Files touched since they were last reported, with the last state seen (null: not looked at yet). */
  private readonly pendingFiles = new Map<string, Seen | null>();
  /** Entries named by an event, whatever they are (a folder, a file, nothing any more). */
  private readonly pendingEntries = new Set<string>();
  /** Folders whose events may have been lost (no name given, the watch failed): read again. */
  private readonly stale = new Set<string>();
  /** Folders that could not be watched during one walk: reported together. */
  private unwatched: Array<{ rel: string; error: NodeJS.ErrnoException }> = [];
  private isReady = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;
  private flushAgain = false;
  private lastEventAt = 0;

  constructor(
    private readonly root: string,
    private readonly opts: WatchMirrorOptions,
  ) {
    const onError = (this.onError = opts.onError ?? (() => undefined));
    this.pollMs = Math.max(10, Math.min(100, Math.floor(opts.stabilityMs / 2)));
    this.ready = (async () => {
      try {
        await this.watchTree('', null);
      } catch (e) {
        onError(e as Error);
      }
      this.reportUnwatched();
      this.isReady = true;
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.ready;
    for (const rel of [...this.watches.keys()]) this.unwatch(rel);
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : path.join(this.root, ...rel.split('/'));
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private touch(rel: string): void {
    if (this.closed) return;
    const { ignore } = this.opts;
    const asFile = isDocumentFile(rel) && !ignore(rel);
    if (asFile) this.pendingFiles.set(rel, null);
    if (asFile || !ignore(rel, true)) this.pendingEntries.add(rel);
    else return;
    this.lastEventAt = Date.now();
    this.schedule(this.opts.debounceMs);
  }

  private markStale(rel: string): void {
    this.stale.add(rel);
    this.pendingEntries.add(rel);
    this.lastEventAt = Date.now();
    this.schedule(this.opts.debounceMs);
  }

  private unwatch(rel: string): void {
    this.watches.get(rel)?.handle.close();
    this.watches.delete(rel);
  }

  /** Drops the watches at and under `rel`; what was known there is judged again by the disk. */
  private forget(rel: string): void {
    for (const dir of [...this.watches.keys()]) if (dir === rel || isUnder(dir, rel)) this.unwatch(dir);
    for (const file of this.knownFiles) if (isUnder(file, rel)) this.pendingFiles.set(file, null);
    for (const dir of this.knownDirs) if (isUnder(dir, rel)) this.pendingEntries.add(dir);
  }

  /**
   * Watches the folder, then reads it (an entry created in between is seen by one or the other),
   * and so on down. Before `ready` it learns the tree; after, what it finds is news (`report`):
   * folders are added, files go to be judged like any touched file.
   */
  private async watchTree(rel: string, report: MirrorChanges | null): Promise<void> {
    const st = await fsp.lstat(this.abs(rel)).catch(() => null);
    if (this.closed || !st?.isDirectory()) return;
    this.watchDir(rel, st.ino);
    const entries = await fsp.readdir(this.abs(rel), { withFileTypes: true }).catch(() => null);
    if (this.closed || entries === null) return; // gone meanwhile: its parent's event says so
    const { ignore } = this.opts;
    for (const e of entries) {
      const child = join(rel, e.name);
      if (e.isDirectory()) {
        if (ignore(child, true)) continue;
        if (!this.knownDirs.has(child)) {
          this.knownDirs.add(child);
          report?.addedDirs.push(child);
        }
        await this.watchTree(child, report);
      } else if (e.isFile() && isDocumentFile(child) && !ignore(child)) {
        // Symbolic links are not documents (scanMirror skips them too).
        if (!report) this.knownFiles.add(child);
        else if (!this.pendingFiles.has(child)) this.pendingFiles.set(child, null);
      }
    }
  }

  /** The native watch of one folder (`ino`: the folder's, to know it from another later at its path). */
  private watchDir(rel: string, ino: number): void {
    try {
      const own = path.basename(this.abs(rel));
      const handle = watch(this.abs(rel), (_event, name) => {
        // The folder itself removed or moved away names itself: whatever is at its path later is
        // another folder, to be read and watched anew (a new folder may reuse the old inode number).
        if (name === null || (name === own && rel !== '')) this.markStale(rel);
        if (name !== null) this.touch(join(rel, name));
      });
      handle.on('error', (e) => {
        if (this.watches.get(rel)?.handle !== handle) return;
        this.unwatch(rel);
        this.onError(new Error(`The watch of the folder "${rel || '.'}" in ${this.root} failed (${e.message}); the folder is read again and watched anew.`));
        this.markStale(rel);
      });
      this.watches.set(rel, { handle, ino });
    } catch (e) {
      this.unwatched.push({ rel, error: e as NodeJS.ErrnoException });
    }
  }

  private reportUnwatched(): void {
    if (this.unwatched.length === 0) return;
    const [first] = this.unwatched;
    const n = this.unwatched.length;
    this.unwatched = [];
    this.onError(
      new Error(
        `Could not watch ${n === 1 ? 'the folder' : `${n} folders, the first`} "${first!.rel || '.'}" in ${this.root} for changes (${first!.error.message}); edits there are seen only by the next full scan. ${watchHint(first!.error.code)}`,
      ),
    );
  }

  /** The file's state now, or null when there is no regular file at that path. */
  private async look(rel: string): Promise<Omit<Seen, 'since'> | null> {
    const st = await fsp.lstat(this.abs(rel)).catch(() => null);
    return st?.isFile() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
  }

  /** Whether the file's current bytes (or its absence) are the daemon's own doing. */
  private async isOwn(rel: string, exists: boolean): Promise<boolean> {
    const { ownWrites } = this.opts;
    if (!ownWrites) return false;
    if (!exists) return ownWrites.consume(rel, null);
    const bytes = await fsp.readFile(this.abs(rel)).catch(() => null);
    return bytes !== null && ownWrites.consume(rel, hashText(bytes));
  }

  /** Closes a batch once the tree is quiet: its folders, then its files, judged by the disk; reports the net change. */
  private async flush(): Promise<void> {
    const { debounceMs } = this.opts;
    if (this.closed) return;
    if (this.flushing || !this.isReady) {
      if (this.flushing) this.flushAgain = true;
      else this.schedule(debounceMs);
      return;
    }
    const quietFor = Date.now() - this.lastEventAt;
    if (quietFor < debounceMs) {
      this.schedule(debounceMs - quietFor);
      return;
    }
    this.flushing = true;
    const changes: MirrorChanges = { added: [], changed: [], removed: [], addedDirs: [], removedDirs: [] };
    try {
      await this.judgeEntries(changes);
      if (this.closed) return;
      this.reportUnwatched();
      await this.judgeFiles(changes);
    } catch (e) {
      this.onError(e as Error);
    } finally {
      this.flushing = false;
    }
    if (this.closed) return;
    this.deliver(changes);
    if (this.flushAgain || this.pendingFiles.size > 0 || this.pendingEntries.size > 0) {
      this.flushAgain = false;
      this.schedule(this.pollMs); // the next round waits for quiet again by itself
    }
  }

  /**
   * Folders first: a new one is watched and read (its files join the files to judge), a gone one
   * takes its watches and files with it, one replaced at the same path is read anew.
   */
  private async judgeEntries(changes: MirrorChanges): Promise<void> {
    for (const rel of this.pendingEntries) {
      this.pendingEntries.delete(rel);
      const st = await fsp.lstat(this.abs(rel)).catch(() => null);
      if (this.closed) return;
      if (st?.isDirectory()) {
        if (rel !== '' && this.opts.ignore(rel, true)) continue;
        const watched = this.watches.get(rel);
        if (watched && watched.ino === st.ino && !this.stale.has(rel)) continue;
        this.stale.delete(rel);
        this.forget(rel);
        if (rel !== '' && !this.knownDirs.has(rel)) {
          this.knownDirs.add(rel);
          changes.addedDirs.push(rel);
        }
        await this.watchTree(rel, changes);
      } else if (this.knownDirs.has(rel)) {
        this.stale.delete(rel);
        this.knownDirs.delete(rel);
        changes.removedDirs.push(rel);
        this.forget(rel);
      }
    }
  }

  /** Each touched file whose state held for `stabilityMs` (or that is gone): added, changed or removed, unless the daemon's own. */
  private async judgeFiles(changes: MirrorChanges): Promise<void> {
    const { ownWrites, stabilityMs } = this.opts;
    const now = Date.now();
    for (const [rel, seen] of [...this.pendingFiles]) {
      const state = await this.look(rel);
      if (state !== null) {
        const same = seen !== null && seen.size === state.size && seen.mtimeMs === state.mtimeMs && seen.ino === state.ino;
        if (!same) {
          this.pendingFiles.set(rel, { ...state, since: now });
          continue;
        }
        if (now - seen.since < stabilityMs) continue;
      }
      // An event may have re-marked the path while we looked: keep it for the next round.
      if (this.pendingFiles.get(rel) !== seen) continue;
      this.pendingFiles.delete(rel);
      const existed = this.knownFiles.has(rel);
      if (state === null) this.knownFiles.delete(rel);
      else this.knownFiles.add(rel);
      // A file that came and went between batches is nobody's news, unless the daemon wrote it (a
      // pull): the journal knows that file, so its removal is the user's, and must not wait for a scan.
      if (state === null && !existed && !ownWrites?.has(rel)) continue;
      if (await this.isOwn(rel, state !== null)) continue;
      (state === null ? changes.removed : existed ? changes.changed : changes.added).push(rel);
    }
  }

  private deliver(changes: MirrorChanges): void {
    const total = changes.added.length + changes.changed.length + changes.removed.length + changes.addedDirs.length + changes.removedDirs.length;
    if (total === 0) return;
    for (const list of Object.values(changes) as string[][]) list.sort(byPath);
    try {
      this.opts.onChanges(changes);
    } catch (e) {
      this.onError(e as Error);
    }
  }
}
