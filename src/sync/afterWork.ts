// What follows every cycle or push, for the daemon and `sync --once` alike: the files it changed
// go into a git backup (when asked), and the counters `spacesync status` shows are saved.
import { recordRefusal, saveDaemonStats } from '../journal/daemonStatus.js';
import type { SyncContext } from './SyncContext.js';
import { commitMirror } from './gitBackup.js';
import type { PushResult } from './pushLocal.js';
import type { SyncCycleResult } from './syncCycle.js';

export interface ChangedFile {
  path: string;
  title: string;
}

/** The files a full cycle wrote: pulled, moved or rewritten by a push. */
export function filesOfCycle(ctx: SyncContext, r: SyncCycleResult): ChangedFile[] {
  const pull = r.pull;
  const paths = [
    ...(pull?.written ?? []).map((x) => x.path),
    ...(pull?.moved ?? []).map((m) => m.to),
    ...(r.push.outcome?.documents ?? []).map((d) => d.path),
  ];
  return titled(ctx, paths);
}

/** The files a push rewrote (the service normalised what was sent, or a merge). */
export function filesOfPush(ctx: SyncContext, r: PushResult): ChangedFile[] {
  return titled(ctx, (r.outcome?.documents ?? []).filter((d) => d.fileWritten).map((d) => d.path));
}

function titled(ctx: SyncContext, paths: string[]): ChangedFile[] {
  return [...new Set(paths)].map((p) => ({ path: p, title: ctx.journal.getDocumentByPath(p)?.title ?? p }));
}

/** One git commit of the mirror when `autoCommit` is on and something changed; never throws. */
export async function backUp(ctx: SyncContext, changed: ChangedFile[], autoCommit: boolean): Promise<void> {
  if (!autoCommit || changed.length === 0) return;
  await commitMirror({ root: ctx.root, changedDocuments: changed, now: ctx.now, logger: ctx.logger });
}

/** Saves the client's counters where `spacesync status` reads them. */
export function saveStats(ctx: SyncContext, startedAt: string): void {
  saveDaemonStats(ctx.journal, { stats: ctx.client.stats(), startedAt, now: ctx.now() });
}

/**
 * Keeps the refusal of a cycle (or of a push of saved files) where `spacesync status` shows it, with
 * what it would have deleted; a full cycle that was not refused
 * clears it. A push that was not refused says nothing about the rest of the folder: it leaves it.
 */
export function noteRefusal(ctx: SyncContext, r: { cycle: SyncCycleResult } | { push: PushResult }): void {
  const refusal = 'cycle' in r ? (r.cycle.push.plan.refused ?? r.cycle.pull?.refused ?? null) : r.push.plan.refused;
  if (!refusal && !('cycle' in r)) return;
  recordRefusal(ctx.journal, refusal && {
    at: ctx.now().toISOString(), reason: refusal.reason, message: refusal.message, deletes: refusal.deletes ?? [],
  });
}
