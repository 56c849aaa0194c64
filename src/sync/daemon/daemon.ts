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
import { isSpacesyncError } from '../../errors.js';
import { FILE_ONLY } from '../../log.js';
import { BUILTIN_DIRS } from '../../core/pull/layout.js';
import { isInTasksDir, TASKS_DIR } from '../../core/tasks/taskFiles.js';
import { recordStatusError } from '../../journal/daemonStatus.js';
import { watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from '../../mirror/index.js';
import type { UserWait, WaitReason } from '../../client/index.js';
import { recordWait } from '../../journal/daemonStatus.js';
import { assetDownloadsOf, isStopped, readHeldBack, releaseMemory, type SyncContext } from '../context/index.js';
import { afterReport, saveStats } from './afterWork.js';
import type { GitPusher } from './gitPush.js';
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
  /** A cycle or push that failed; the daemon goes on unless the error is fatal. */
  onError?: (e: unknown, fatal: boolean) => void;
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
  const { ctx } = o;
  const startedAt = ctx.now().toISOString();
  let stopping = false;
  let delay = o.pollMinMs;
  let timer: NodeJS.Timeout | undefined;
  let cycleDue = true;
  /** Downloads ended since the last operation: applied when nothing else waits. */
  let mediaDue = false;
  /** The next cycle scans the whole mirror (the first one does). */
  let fullDue = true;
  let lastFullAt = ctx.now().getTime();
  const fullScanMs = o.fullScanMs ?? ctx.settings.fullScanMinutes * 60_000;
  /** Files the watcher named since the last look: pushed at once. */
  const paths = new Set<string>();
  /** Files an operation took and did not settle: looked at again by the next poll cycle. */
  const retry = new Set<string>();
  /** Files gone, held a moment: the other half of a rename (the file at its new path) may still come. */
  const removals = new Map<string, number>();
  let removalTimer: NodeJS.Timeout | undefined;
  const grace = Math.max(1_000, 3 * (o.debounceMs + (o.stabilityMs ?? o.debounceMs)));
  let running: Promise<void> | null = null;
  let fatal: unknown;
  let resolveDone!: () => void;
  let rejectDone!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  let firstCycle!: () => void;
  const firstDone = new Promise<void>((res) => (firstCycle = res));

  const schedulePoll = () => {
    clearTimeout(timer);
    if (stopping) return;
    timer = setTimeout(() => {
      cycleDue = true;
      kick();
    }, delay);
  };

  const failed = (e: unknown) => {
    if (isStopped(ctx, e)) return; // asked to stop: what was done is recorded, the rest waits for the next run
    if (fatal !== undefined) return; // stopping on an earlier error: what follows from it is no news
    const isFatal = isSpacesyncError(e) && FATAL_CODES.has(e.code);
    // When a caller tells the user (onError), the terminal does not show it a second time.
    ctx.logger.error({ ...(o.onError ? FILE_ONLY : {}), err: e, fatal: isFatal }, 'sync failed');
    if (isSpacesyncError(e)) recordStatusError(ctx.journal, { at: ctx.now(), code: e.code, message: e.message }, o.secrets ?? []);
    o.onError?.(e, isFatal);
    if (isFatal) {
      fatal = e;
      void stop();
    }
    delay = o.pollMaxMs;
  };

  const next = (): Work | null => {
    const now = Date.now();
    if (cycleDue) {
      cycleDue = false;
      const full = fullDue || ctx.now().getTime() - lastFullAt >= fullScanMs;
      // Taken now: a folder change or a watcher error reported while this cycle runs asks for the
      // next full scan (this one may have looked before it); an unsettled full scan is asked again.
      if (full) fullDue = false;
      // Taken from the sets now (what the watcher reports from here on is kept for the next look),
      // and given back unless the cycle settles them.
      const taken = new Set([...paths, ...retry]);
      paths.clear();
      retry.clear();
      for (const [p, at] of [...removals]) {
        if (!full && at > now) continue; // the other half of a rename may still come
        taken.add(p);
        removals.delete(p);
      }
      if (full) return { kind: 'cycle', paths: null, taken };
      for (const h of readHeldBack(ctx.journal)) taken.add(h.path);
      return { kind: 'cycle', paths: taken, taken };
    }
    const due = [...removals].filter(([, at]) => at <= now).map(([p]) => p);
    if (paths.size > 0 || due.length > 0) {
      // The held-back files go with every push: a decision held back for another file (a deletion
      // waiting while an unreadable file may be it, moved) is made again as soon as that file changes.
      const held = readHeldBack(ctx.journal).map((h) => h.path);
      const w: Work = { kind: 'push', paths: new Set([...paths, ...due, ...held]) };
      paths.clear();
      for (const p of due) removals.delete(p);
      return w;
    }
    if (removals.size > 0) {
      clearTimeout(removalTimer);
      removalTimer = setTimeout(kick, Math.max(0, Math.min(...removals.values()) - now));
    }
    if (mediaDue) {
      mediaDue = false;
      return { kind: 'media' };
    }
    return null;
  };

  // A user's edit held by the rate limit is told (once per operation, on the terminal and in status).
  let current: Work | null = null;
  let waitTold = false;
  /** The wait recorded for status (since, until): a wait that goes on past its end is recorded again. */
  let recorded: { since: string; until: number } | null = null;
  const unwatch = o.userWaits?.((u) => {
    if (!current) return;
    const at = ctx.now();
    const until = at.getTime() + u.waitMs;
    if (waitTold) {
      // Told once; status keeps the end of the wait true when it is pushed further (a budget spent again).
      if (recorded && until > recorded.until + 1_000) {
        recorded.until = until;
        const paths = current.kind === 'push' ? [...current.paths].sort() : [];
        try {
          recordWait(ctx.journal, { since: recorded.since, until: new Date(until).toISOString(), reason: u.reason, paths });
        } catch (e) {
          ctx.logger.warn({ err: e }, 'could not record the wait for status');
        }
      }
      return;
    }
    if (u.waitMs < (o.waitNoticeMs ?? 3_000)) return;
    waitTold = true;
    const paths = current.kind === 'push' ? [...current.paths].sort() : [];
    recorded = { since: at.toISOString(), until };
    try {
      recordWait(ctx.journal, { since: recorded.since, until: new Date(until).toISOString(), reason: u.reason, paths });
      // The counters status shows beside the wait are the ones that explain it (a 429 just answered).
      saveStats(ctx, startedAt);
    } catch (e) {
      ctx.logger.warn({ err: e }, 'could not record the wait for status');
    }
    ctx.logger.info({ ...FILE_ONLY, waitMs: u.waitMs, reason: u.reason, paths }, 'edits wait for the rate limit');
    o.onWait?.({ waitMs: u.waitMs, reason: u.reason, paths });
  });

  const perform = async (w: Work) => {
    current = w;
    waitTold = false;
    const taken = w.kind === 'cycle' ? w.taken : w.kind === 'push' ? w.paths : new Set<string>();
    let settled = false;
    try {
      ctx.ownership?.check();
      if (w.kind === 'media') {
        settled = true;
        const { media: r, report } = await applyEndedDownloads(ctx);
        o.onMedia?.(r);
        o.onReport?.(
          report,
          await afterReport(ctx, report, { looked: lookedAt('media'), autoCommit: o.autoCommit === true, ...(o.push ? { push: o.push } : {}) }),
        );
      } else if (w.kind === 'cycle') {
        const full = w.paths === null;
        const startedFull = ctx.now().getTime();
        const r = await syncOnce(ctx, { ...(w.paths === null ? {} : { paths: [...w.paths] }), downloads: 'background' });
        settled = isSettled(r);
        if (full && settled) lastFullAt = startedFull;
        else if (full) fullDue = true;
        // Files the pull left as they are (changed here, not sent): looked at again next time.
        for (const p of r.pull?.localPending ?? []) retry.add(p.path);
        o.onCycle?.(r);
        o.onReport?.(
          r.report,
          await afterReport(ctx, r.report, {
            looked: lookedAt('cycle', w.paths ?? undefined),
            autoCommit: o.autoCommit === true,
            ...(o.push ? { push: o.push } : {}),
          }),
        );
        const pull = r.pull;
        const busy =
          (r.push.outcome?.sent.length ?? 0) +
            (pull ? pull.written.length + pull.moved.length + pull.folderMoves.length + pull.purged.length : 0) +
            (r.tasks?.written.length ?? 0) >
          0;
        delay = busy ? o.pollMinMs : r.push.plan.refused || pull?.refused ? o.pollMaxMs : Math.min(o.pollMaxMs, delay * 2);
      } else {
        const { push: r, report } = await pushSaved(ctx, [...w.paths]);
        settled = !r.plan.refused && !(r.outcome?.aborted ?? false) && (r.outcome?.failed.length ?? 0) + (r.outcome?.stale.length ?? 0) === 0;
        o.onPush?.(r);
        o.onReport?.(
          report,
          await afterReport(ctx, report, { looked: lookedAt('push', w.paths), autoCommit: o.autoCommit === true, ...(o.push ? { push: o.push } : {}) }),
        );
        // Read again and merged by the next cycle: documents whose request failed, and those the space changed while the push waited.
        if (r.outcome && r.outcome.failed.length + r.outcome.stale.length > 0) cycleDue = true;
        if (r.outcome) delay = o.pollMinMs;
      }
    } catch (e) {
      failed(e);
    }
    // Not settled (failed, refused, stopped, or requests whose outcome is unknown): the files it took are looked at again.
    if (!settled) for (const p of taken) retry.add(p);
    if (waitTold) recordWait(ctx.journal, null);
    recorded = null;
    current = null;
    saveStats(ctx, startedAt);
  };

  const kick = () => {
    if (running || stopping) return;
    running = (async () => {
      for (let w = next(); w && !stopping; w = next()) {
        await perform(w);
        if (w.kind === 'cycle') {
          firstCycle();
          schedulePoll();
        }
      }
      // Idle until the next poll or save: what the operations left behind goes back to the system.
      if (!stopping) releaseMemory();
    })().finally(() => {
      running = null;
    });
  };

  const onChanges = (c: MirrorChanges) => {
    if (stopping) return;
    ctx.logger.debug(
      { added: c.added.length, changed: c.changed.length, removed: c.removed, addedDirs: c.addedDirs.length, removedDirs: c.removedDirs },
      'files changed here',
    );
    // Folders created or removed need the full picture (folder requests, the delete guard);
    // the ones a pull just made (built-in locations, folders the journal knows) are not news.
    const known = new Set<string>([...Object.values(BUILTIN_DIRS), TASKS_DIR, ...ctx.journal.listFolders().map((f) => f.path)]);
    if (c.addedDirs.some((d) => !known.has(d)) || c.removedDirs.length > 0) cycleDue = fullDue = true;
    for (const p of [...c.added, ...c.changed]) {
      // A saved task file is merged by a cycle (the task files' part of it), not by a push.
      if (isInTasksDir(p) && !ctx.journal.getDocumentByPath(p)) {
        cycleDue = true;
        continue;
      }
      paths.add(p);
      removals.delete(p);
    }
    for (const p of c.removed) removals.set(p, Date.now() + grace);
    kick();
  };

  // The mirror lost (its lock or journal gone) between two operations: the daemon stops at once.
  const onAbort = () => {
    const lost = ctx.ownership?.lost;
    if (lost && !stopping) failed(lost);
  };
  ctx.signal?.addEventListener('abort', onAbort, { once: true });

  // A download that ended is applied once the operation under way (if any) is done.
  if (!ctx.readOnly)
    assetDownloadsOf(ctx).onSettled = () => {
      mediaDue = true;
      kick();
    };

  const watcher = (o.watch ?? watchMirror)(ctx.root, {
    ignore: ctx.ignore,
    debounceMs: o.debounceMs,
    stabilityMs: o.stabilityMs ?? o.debounceMs,
    ownWrites: ctx.ownWrites,
    onChanges,
    onError: (e) => {
      // The watcher may have missed changes: the next poll cycle scans the whole mirror.
      fullDue = true;
      ctx.logger.warn({ err: e }, 'watcher error');
    },
  });
  const ready = (async () => {
    await watcher.ready;

    kick();
    await firstDone;
  })();

  async function stop(): Promise<void> {
    if (!stopping) {
      stopping = true;
      clearTimeout(timer);
      clearTimeout(removalTimer);
      firstCycle();
      try {
        await running;
        await watcher.close();
      } finally {
        unwatch?.();
        ctx.signal?.removeEventListener('abort', onAbort);
        if (fatal !== undefined) rejectDone(fatal);
        else resolveDone();
      }
    }
    return done.catch(() => undefined);
  }

  return { ready, done, stop };
}
