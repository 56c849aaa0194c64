// A user's edit held by the rate limit is told: once per operation, on the terminal (onWait) and in
// `spacesync status` (the wait recorded, its end kept true when the budget is spent again), and the
// record cleared when the operation ends.
import type { UserWait, WaitReason } from '../../client/index.js';
import { recordWait } from '../../journal/daemonStatus.js';
import { FILE_ONLY } from '../../log.js';
import type { SyncContext } from '../context/index.js';
import { saveStats } from './afterWork.js';

/** The daemon's options these notices follow (DaemonOptions). */
export interface WaitNoticeOptions {
  ctx: SyncContext;
  userWaits?: (listener: (w: UserWait) => void) => () => void;
  waitNoticeMs?: number;
  onWait?: (w: { waitMs: number; reason: WaitReason; paths: string[] }) => void;
}

export class WaitNotices {
  /** The files of the operation under way (a push's; none for a cycle); null between operations. */
  private paths: string[] | null = null;
  private told = false;
  /** The wait recorded for status (since, until): a wait that goes on past its end is recorded again. */
  private recorded: { since: string; until: number } | null = null;
  private readonly unwatch: (() => void) | undefined;

  constructor(
    private readonly o: WaitNoticeOptions,
    private readonly startedAt: string,
  ) {
    this.unwatch = o.userWaits?.((u) => this.onWait(u));
  }

  /** An operation starts (`paths`: the files a push sends). */
  begin(paths: string[]): void {
    this.paths = paths;
    this.told = false;
  }

  /** The operation ended: a wait it told is over. */
  end(): void {
    if (this.told) recordWait(this.o.ctx.journal, null);
    this.recorded = null;
    this.paths = null;
  }

  close(): void {
    this.unwatch?.();
  }

  private onWait(u: UserWait): void {
    const { ctx } = this.o;
    const paths = this.paths;
    // Waiting for an answer (requests in flight), not for a budget: nothing to tell, no end to show.
    if (!paths || !Number.isFinite(u.waitMs)) return;
    const at = ctx.now();
    const until = at.getTime() + u.waitMs;
    if (this.told) {
      // Told once; status keeps the end of the wait true when it is pushed further (a budget spent again).
      if (this.recorded && until > this.recorded.until + 1_000) {
        this.recorded.until = until;
        try {
          recordWait(ctx.journal, { since: this.recorded.since, until: new Date(until).toISOString(), reason: u.reason, paths });
        } catch (e) {
          ctx.logger.warn({ err: e }, 'could not record the wait for status');
        }
      }
      return;
    }
    if (u.waitMs < (this.o.waitNoticeMs ?? 3_000)) return;
    this.told = true;
    this.recorded = { since: at.toISOString(), until };
    try {
      recordWait(ctx.journal, { since: this.recorded.since, until: new Date(until).toISOString(), reason: u.reason, paths });
      // The counters status shows beside the wait are the ones that explain it (a 429 just answered).
      saveStats(ctx, this.startedAt);
    } catch (e) {
      ctx.logger.warn({ err: e }, 'could not record the wait for status');
    }
    ctx.logger.info({ ...FILE_ONLY, waitMs: u.waitMs, reason: u.reason, paths }, 'edits wait for the rate limit');
    this.o.onWait?.({ waitMs: u.waitMs, reason: u.reason, paths });
  }
}
