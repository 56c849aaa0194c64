// The daemon: the watcher pushes a saved file as soon as it is quiet (the latest listing tells
// whether the service changed that document too), and cycles (push, then pull) run on an adaptive
// poll — often after changes, slower while idle. A poll cycle looks only at the files the watcher
// named since the last look, the ones an earlier operation left unsettled (it failed, was refused
// or stopped) and the held-back ones; a full scan of the mirror runs at start, after a watcher
// error, when folders come or go, and every `fullScanMs`. One operation at a time; what the watcher
// reports meanwhile is kept for the next, and the paths an operation took go back to be looked at
// again unless it settled them. Media assets download beside the operations (a cycle starts them
// and goes on); each one that ends is applied (moved into place, recorded, its line linked) as an
// operation of its own when nothing else waits, or by the next cycle, so it never races one.
// `stop()` finishes the operation under way and closes the watcher; downloads under way stop with
// the session. The journal holds everything done (every write is its own transaction).
import { existsSync } from 'node:fs';
import { isSpacesyncError } from '../../errors.js';
import { FILE_ONLY } from '../../log.js';
import { BUILTIN_DIRS } from '../../core/pull/layout.js';
import { isInTasksDir, TASKS_DIR } from '../../core/tasks/taskFiles.js';
import { recordStatusError } from '../../journal/daemonStatus.js';
import { resolveInRoot, watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from '../../mirror/index.js';
import type { UserWait, WaitReason } from '../../client/index.js';
import { assetDownloadsOf, isStopped, readHeldBack, releaseMemory, type SyncContext } from '../context/index.js';
import { afterReport, saveStats } from './afterWork.js';
import type { GitPusher } from './gitPush.js';
import { WaitNotices } from './waitNotices.js';
import { isOutOfReach, Outage, type OutageEvent } from './outage.js';
import { applyEndedDownloads, lookedAt, pushSaved, syncOnce, type MediaSyncResult, type PushResult, type SyncOnceResult } from '../cycle/index.js';
import type { CycleReport, Problem } from '../../core/report/cycleReport.js';

/** Errors after which another cycle cannot succeed without the user: the daemon stops on them. */
export const FATAL_CODES: ReadonlySet<string> = new Set([
  'auth_missing',
  'auth_rejected',
  'link_not_found',
  'config_invalid',
  'config_missing',
  'journal_corrupt',
  'journal_newer',
  'locked',
  'mirror_io',
  'state_lost',
]);

export interface DaemonOptions {
  ctx: SyncContext;
  /** Poll interval after changes, and the most it grows to while idle (ms). */
  pollMinMs: number;
  pollMaxMs: number;
  /** A poll cycle scans the whole mirror when the last full scan is this old (ms); default the settings' fullScanMinutes. */
  fullScanMs?: number;
  /** The tree must be quiet this long before a save is read. */
  debounceMs: number;
  /** A file's size must hold this long before it is read (a slow writer); default debounceMs. */
  stabilityMs?: number;
  /** Commit the mirror to git after a cycle that changed files. */
  autoCommit?: boolean;
  /** Pushes each commit (`git.push`). */
  push?: GitPusher;
  /** Secrets to mask in the errors kept for `spacesync status`. */
  secrets?: readonly string[];
  /** Subscribes to the waits of user edits (the client's scheduler.onUserWait); returns the unsubscribe. */
  userWaits?: (listener: (w: UserWait) => void) => () => void;
  /** A user's edit waits this long or more for the rate limit before it is told (ms); default 3000. */
  waitNoticeMs?: number;
  /** Told once per push or cycle whose edits wait at least `waitNoticeMs` for a budget. */
  onWait?: (w: { waitMs: number; reason: WaitReason; paths: string[] }) => void;
  onCycle?: (r: SyncOnceResult) => void;
  onPush?: (r: PushResult) => void;
  /**
   * Every operation's report (a cycle, a push of saved files, downloads applied), once recorded, with
   * the problems it made appear and those it cleared: what the terminal says.
   */
  onReport?: (r: CycleReport, problems: { appeared: Problem[]; cleared: Problem[] }) => void;
  /** Downloads that ended, applied between the operations. */
  onMedia?: (r: MediaSyncResult) => void;
  /** A cycle or push that failed; the daemon goes on unless the error is fatal. Not told of a space out of reach (onOutage). */
  onError?: (e: unknown, fatal: boolean) => void;
  /** The space out of reach: when it starts, each look that fails while it lasts, and when it ends. */
  onOutage?: (e: OutageEvent) => void;
  /** Starts the watcher of the mirror: watchMirror by default (a test passes one that reports what it is told). */
  watch?: (root: string, opts: WatchMirrorOptions) => MirrorWatcher;
}

export interface DaemonHandle {
  /** Resolves once the watcher is set up and the first cycle is done. */
  ready: Promise<void>;
  /** Resolves when the daemon stopped; rejects with the error that stopped it. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** A cycle with `paths` looks only at those files; without, at the whole mirror (a full scan). */
type Work = { kind: 'cycle'; paths: Set<string> | null; taken: Set<string> } | { kind: 'push'; paths: Set<string> } | { kind: 'media' };

/** A cycle that did all it set out to (nothing failed, refused or stopped). */
function isSettled(r: SyncOnceResult): boolean {
  const push = r.push;
  if (push.plan.refused || push.outcome?.aborted || (push.outcome?.failed.length ?? 0) + (push.outcome?.stale.length ?? 0) > 0) return false;
  const pull = r.pull;
  return pull !== null && !pull.refused && !pull.aborted && pull.failed.length + pull.blocked.length + (r.tasks?.failed.length ?? 0) === 0;
}

export function runDaemon(o: DaemonOptions): DaemonHandle {
  return new Daemon(o).handle;
}

/** The daemon's state between its operations: what is due, what the watcher named, what to look at again. */
class Daemon {
  readonly handle: DaemonHandle;
  private readonly ctx: SyncContext;
  private readonly startedAt: string;
  private stopping = false;
  private delay: number;
  private timer: NodeJS.Timeout | undefined;
  private cycleDue = true;
  /** Downloads ended since the last operation: applied when nothing else waits. */
  private mediaDue = false;
  /** The next cycle scans the whole mirror (the first one does). */
  private fullDue = true;
  private lastFullAt: number;
  private readonly fullScanMs: number;
  /** Files the watcher named since the last look: pushed at once. */
  private readonly paths = new Set<string>();
  /** Files an operation took and did not settle: looked at again by the next poll cycle. */
  private readonly retry = new Set<string>();
  /** Paths found to be symbolic links: a directory back at one is looked at whole. */
  private readonly linked = new Set<string>();
  /** Files gone, held a moment: the other half of a rename (the file at its new path) may still come. */
  private readonly removals = new Map<string, number>();
  private removalTimer: NodeJS.Timeout | undefined;
  private readonly grace: number;
  private running: Promise<void> | null = null;
  private fatal: unknown;
  private readonly done: Promise<void>;
  private resolveDone!: () => void;
  private rejectDone!: (e: unknown) => void;
  private firstCycle!: () => void;
  private readonly waits: WaitNotices;
  private readonly watcher: MirrorWatcher;
  private readonly outage = new Outage();
  /** Told when a save comes in (a pull under way lets it go first: SyncContext.editsWaiting). */
  private readonly savedListeners = new Set<() => void>();

  constructor(private readonly o: DaemonOptions) {
    const ctx = (this.ctx = o.ctx);
    this.startedAt = ctx.now().toISOString();
    this.delay = o.pollMinMs;
    this.lastFullAt = ctx.now().getTime();
    this.fullScanMs = o.fullScanMs ?? ctx.settings.fullScanMinutes * 60_000;
    this.grace = Math.max(1_000, 3 * (o.debounceMs + (o.stabilityMs ?? o.debounceMs)));
    this.done = new Promise<void>((res, rej) => {
      this.resolveDone = res;
      this.rejectDone = rej;
    });
    const firstDone = new Promise<void>((res) => (this.firstCycle = res));
    this.waits = new WaitNotices(o, this.startedAt);
    ctx.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (!ctx.readOnly)
      ctx.editsWaiting = {
        waiting: () => this.paths.size > 0 && !this.stopping,
        push: () => this.pushDuringPull(),
        onSaved: (listener) => {
          this.savedListeners.add(listener);
          return () => this.savedListeners.delete(listener);
        },
      };
    // A download that ended is applied once the operation under way (if any) is done.
    if (!ctx.readOnly)
      assetDownloadsOf(ctx).onSettled = () => {
        this.mediaDue = true;
        this.kick();
      };
    const watcher = (this.watcher = (o.watch ?? watchMirror)(ctx.root, {
      ignore: ctx.ignore,
      debounceMs: o.debounceMs,
      stabilityMs: o.stabilityMs ?? o.debounceMs,
      ownWrites: ctx.ownWrites,
      onChanges: (c) => this.onChanges(c),
      onError: (e) => {
        // The watcher may have missed changes: the next poll cycle scans the whole mirror.
        this.fullDue = true;
        ctx.logger.warn({ err: e }, 'watcher error');
      },
    }));
    const ready = (async () => {
      await watcher.ready;
      this.kick();
      await firstDone;
    })();
    this.handle = { ready, done: this.done, stop: () => this.stop() };
  }

  private schedulePoll(): void {
    clearTimeout(this.timer);
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.cycleDue = true;
      this.kick();
    }, this.delay);
  }

  private failed(e: unknown): void {
    const { ctx, o } = this;
    if (isStopped(ctx, e)) return; // asked to stop: what was done is recorded, the rest waits for the next run
    if (this.fatal !== undefined) return; // stopping on an earlier error: what follows from it is no news
    if (this.outOfReach(e)) return;
    const isFatal = isSpacesyncError(e) && FATAL_CODES.has(e.code);
    // When a caller tells the user (onError), the terminal does not show it a second time.
    ctx.logger.error({ ...(o.onError ? FILE_ONLY : {}), err: e, fatal: isFatal }, 'sync failed');
    if (isSpacesyncError(e)) recordStatusError(ctx.journal, { at: ctx.now(), code: e.code, message: e.message }, o.secrets ?? []);
    o.onError?.(e, isFatal);
    if (isFatal) {
      this.fatal = e;
      void this.stop();
    }
    this.delay = o.pollMaxMs;
  }

  /**
   * A failure to reach the space (an outage, not an error of the cycle): said once when it starts,
   * recorded for `status`, and looked at again soon, by a poll cycle that pushes the files kept
   * meanwhile first; the idle poll's pace waits until the space answers.
   */
  private outOfReach(e: unknown): boolean {
    if (!isOutOfReach(e)) return false;
    const { ctx, o } = this;
    const event = this.outage.failed(e, ctx.now().getTime());
    const told = event.kind === 'started' && !o.onOutage;
    ctx.logger[told ? 'warn' : 'info']({ err: e, since: event.since }, 'the space is out of reach; edits are kept and sent when it is back');
    recordStatusError(ctx.journal, { at: ctx.now(), code: e.code, message: e.message }, o.secrets ?? []);
    o.onOutage?.(event);
    this.delay = this.outage.nextLookMs();
    this.schedulePoll();
    return true;
  }

  /** The space answered an operation: the end of an outage, if one was under way, with the edits that operation sent. */
  private reached(report: CycleReport): void {
    const event = this.outage.reached(this.ctx.now().getTime(), report.changes.filter((c) => c.side === 'local').length);
    if (!event) return;
    this.ctx.logger.info({ since: event.since }, 'the space is reachable again');
    this.o.onOutage?.(event);
  }

  /** The next operation: a cycle when one is due, else a push of the files saved, else the downloads that ended. */
  private next(): Work | null {
    const now = Date.now();
    if (this.cycleDue) return this.nextCycle(now);
    const push = this.nextPush(now);
    if (push) return push;
    if (this.removals.size > 0) {
      clearTimeout(this.removalTimer);
      this.removalTimer = setTimeout(this.kick, Math.max(0, Math.min(...this.removals.values()) - now));
    }
    if (this.mediaDue) {
      this.mediaDue = false;
      return { kind: 'media' };
    }
    return null;
  }

  /**
   * A file saved and then moved or removed before its push: the path the watcher named as saved is
   * a removal now, and waits the removal's grace for the other half of a rename (taken alone, the
   * old half trashed the document and the new one became a second, chaos seed 1020016).
   */
  private deferVanished(paths: Set<string>, now: number): void {
    for (const p of [...paths]) {
      if (existsSync(resolveInRoot(this.ctx.root, p))) continue;
      paths.delete(p);
      if (!this.removals.has(p)) this.removals.set(p, now + this.grace);
    }
  }

  /** A push of the files saved (and of those gone for good), if any. */
  private nextPush(now: number): (Work & { kind: 'push' }) | null {
    this.deferVanished(this.paths, now);
    const due = [...this.removals].filter(([, at]) => at <= now).map(([p]) => p);
    if (this.paths.size === 0 && due.length === 0) return null;
    // The held-back files go with every push: a decision held back for another file (a deletion
    // waiting while an unreadable file may be it, moved) is made again as soon as that file changes.
    const held = this.heldToLookAt();
    const w = { kind: 'push' as const, paths: new Set([...this.paths, ...due, ...held]) };
    this.paths.clear();
    for (const p of due) this.removals.delete(p);
    return w;
  }

  /**
   * The push of files saved while a cycle's pull runs, between two of its documents (the pull asks:
   * SyncContext.editsWaiting): an edit waits for one debounce and one request, not for a first pull
   * of thousands of documents. What it leaves unsettled is looked at again, as after any push.
   */
  private async pushDuringPull(): Promise<void> {
    const w = this.nextPush(Date.now());
    if (!w || this.stopping) return;
    let settled = false;
    try {
      settled = await this.push(w.paths);
    } catch (e) {
      this.failed(e);
    }
    if (!settled) for (const p of w.paths) this.retry.add(p);
  }

  /**
   * The held-back files to look at again with a push or a poll cycle. One that is gone with no word
   * of the watcher (moved with its folder while no daemon watched, say) is not: a look at some paths
   * would take it for deleted, and only a full scan sees where it went, so one is asked for. A held
   * deletion's path is gone by nature and stays.
   */
  private heldToLookAt(): string[] {
    const out: string[] = [];
    for (const h of readHeldBack(this.ctx.journal)) {
      if (h.reason === 'deletion' || h.reason === 'symlink' || existsSync(resolveInRoot(this.ctx.root, h.path))) out.push(h.path);
      else this.fullDue = true;
    }
    return out;
  }

  private nextCycle(now: number): Work {
    this.cycleDue = false;
    const held = this.heldToLookAt();
    const full = this.fullDue || this.ctx.now().getTime() - this.lastFullAt >= this.fullScanMs;
    // Taken now: a folder change or a watcher error reported while this cycle runs asks for the
    // next full scan (this one may have looked before it); an unsettled full scan is asked again.
    if (full) this.fullDue = false;
    // Saved paths only: the files to look at again (`retry`) include removals already past their grace.
    else this.deferVanished(this.paths, now);
    // Taken from the sets now (what the watcher reports from here on is kept for the next look),
    // and given back unless the cycle settles them.
    const taken = new Set([...this.paths, ...this.retry]);
    this.paths.clear();
    this.retry.clear();
    for (const [p, at] of [...this.removals]) {
      if (!full && at > now) continue; // the other half of a rename may still come
      taken.add(p);
      this.removals.delete(p);
    }
    if (full) return { kind: 'cycle', paths: null, taken };
    for (const p of held) taken.add(p);
    return { kind: 'cycle', paths: taken, taken };
  }

  private async perform(w: Work): Promise<void> {
    const { ctx } = this;
    this.waits.begin(w.kind === 'push' ? [...w.paths].sort() : []);
    const taken = w.kind === 'cycle' ? w.taken : w.kind === 'push' ? w.paths : new Set<string>();
    let settled = false;
    try {
      ctx.ownership?.check();
      if (w.kind === 'media') settled = await this.applyDownloads();
      else if (w.kind === 'cycle') settled = await this.cycle(w.paths);
      else settled = await this.push(w.paths);
    } catch (e) {
      this.failed(e);
    }
    // Not settled (failed, refused, stopped, or requests whose outcome is unknown): the files it took are looked at again.
    if (!settled) for (const p of taken) this.retry.add(p);
    this.waits.end();
    saveStats(ctx, this.startedAt);
    ctx.journal.releaseCaches();
  }

  /** What follows each report: recorded, committed to git (and pushed) when the config says so. */
  private after(looked: (p: Problem) => boolean): Parameters<typeof afterReport>[2] {
    return { looked, autoCommit: this.o.autoCommit === true, ...(this.o.push ? { push: this.o.push } : {}) };
  }

  /**
   * Records the report and tells the caller's hook. A folder that was a symbolic link and is real
   * again may hold what no event named (folders and files made behind the link, or while a scan
   * looked past it): the next cycle looks at the whole mirror, and so does the one after the
   * watcher sees a directory come back where a link was (chaos seed 1420009).
   */
  private async recorded(report: CycleReport, looked: (p: Problem) => boolean): Promise<void> {
    const delta = await afterReport(this.ctx, report, this.after(looked));
    const link = (p: Problem) => p.key.startsWith('held:symlink:');
    for (const p of delta.appeared.filter(link)) this.linked.add(p.path);
    if (delta.cleared.some(link)) this.cycleDue = this.fullDue = true;
    this.o.onReport?.(report, delta);
  }

  private async applyDownloads(): Promise<true> {
    const { media, report } = await applyEndedDownloads(this.ctx);
    this.o.onMedia?.(media);
    await this.recorded(report, lookedAt('media'));
    return true;
  }

  private async cycle(paths: Set<string> | null): Promise<boolean> {
    const { ctx, o } = this;
    const full = paths === null;
    const startedFull = ctx.now().getTime();
    const r = await syncOnce(ctx, { ...(paths === null ? {} : { paths: [...paths] }), downloads: 'background' });
    this.reached(r.report);
    const settled = isSettled(r);
    if (full && settled) this.lastFullAt = startedFull;
    else if (full) this.fullDue = true;
    // Files the pull left as they are (changed here, not sent): looked at again next time.
    for (const p of r.pull?.localPending ?? []) this.retry.add(p.path);
    o.onCycle?.(r);
    await this.recorded(r.report, lookedAt('cycle', paths ?? undefined));
    const pull = r.pull;
    const busy =
      (r.push.outcome?.sent.length ?? 0) +
        (pull ? pull.written.length + pull.moved.length + pull.folderMoves.length + pull.purged.length : 0) +
        (r.tasks?.written.length ?? 0) >
      0;
    this.delay = busy ? o.pollMinMs : r.push.plan.refused || pull?.refused ? o.pollMaxMs : Math.min(o.pollMaxMs, this.delay * 2);
    return settled;
  }

  private async push(paths: Set<string>): Promise<boolean> {
    const { ctx, o } = this;
    const { push: r, report } = await pushSaved(ctx, [...paths]);
    this.reached(report);
    const settled = !r.plan.refused && !(r.outcome?.aborted ?? false) && (r.outcome?.failed.length ?? 0) + (r.outcome?.stale.length ?? 0) === 0;
    o.onPush?.(r);
    await this.recorded(report, lookedAt('push', paths));
    // Read again and merged by the next cycle: documents whose request failed, and those the space changed while the push waited.
    if (r.outcome && r.outcome.failed.length + r.outcome.stale.length > 0) this.cycleDue = true;
    if (r.outcome) this.delay = o.pollMinMs;
    return settled;
  }

  private readonly kick = (): void => {
    if (this.running || this.stopping) return;
    this.running = (async () => {
      for (let w = this.next(); w && !this.stopping; w = this.next()) {
        await this.perform(w);
        if (w.kind === 'cycle') {
          this.firstCycle();
          this.schedulePoll();
        }
      }
      // Idle until the next poll or save: what the operations left behind goes back to the system.
      if (!this.stopping) releaseMemory();
    })().finally(() => {
      this.running = null;
    });
  };

  private onChanges(c: MirrorChanges): void {
    const { ctx } = this;
    if (this.stopping) return;
    ctx.logger.debug(
      { added: c.added.length, changed: c.changed.length, removed: c.removed, addedDirs: c.addedDirs.length, removedDirs: c.removedDirs },
      'files changed here',
    );
    // Folders created or removed need the full picture (folder requests, the delete guard);
    // the ones a pull just made (built-in locations, folders the journal knows) are not news, unless
    // a link stood there: what the folder holds now may be new.
    const known = new Set<string>([...Object.values(BUILTIN_DIRS), TASKS_DIR, ...ctx.journal.listFolders().map((f) => f.path)]);
    if (c.addedDirs.some((d) => !known.has(d) || this.linked.has(d)) || c.removedDirs.length > 0) this.cycleDue = this.fullDue = true;
    for (const p of [...c.added, ...c.changed]) {
      // A saved task file is merged by a cycle (the task files' part of it), not by a push.
      if (isInTasksDir(p) && !ctx.journal.getDocumentByPath(p)) {
        this.cycleDue = true;
        continue;
      }
      this.paths.add(p);
      this.removals.delete(p);
    }
    for (const p of c.removed) this.removals.set(p, Date.now() + this.grace);
    if (this.paths.size > 0) for (const l of [...this.savedListeners]) l();
    this.kick();
  }

  /** The mirror lost (its lock or journal gone) between two operations: the daemon stops at once. */
  private readonly onAbort = (): void => {
    const lost = this.ctx.ownership?.lost;
    if (lost && !this.stopping) this.failed(lost);
  };

  private async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      clearTimeout(this.timer);
      clearTimeout(this.removalTimer);
      this.firstCycle();
      try {
        await this.running;
        await this.watcher.close();
      } finally {
        this.waits.close();
        this.ctx.signal?.removeEventListener('abort', this.onAbort);
        if (this.fatal !== undefined) this.rejectDone(this.fatal);
        else this.resolveDone();
      }
    }
    return this.done.catch(() => undefined);
  }
}
