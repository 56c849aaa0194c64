// What follows every cycle or push, for the daemon and `sync --once` alike: its report is recorded
// (the last look, the problems standing), the files it changed go into a git backup (when asked),
// and the counters `spacesync status` shows are saved.
import { recordRefusal, saveDaemonStats } from '../../journal/daemonStatus.js';
import { changedAnything, type CycleReport, type Problem } from '../../core/report/cycleReport.js';
import { deletesKey, dropStaleApprovals, type SyncContext } from '../context/index.js';
import { recordReport } from '../cycle/index.js';
import { commitMirror } from './gitBackup.js';
import type { GitPusher } from './gitPush.js';

/** Records the report and commits the mirror when asked; returns the problems that appeared and cleared. */
export async function afterReport(
  ctx: SyncContext,
  report: CycleReport,
  o: { looked: (p: Problem) => boolean; autoCommit: boolean; push?: GitPusher },
): Promise<{ appeared: Problem[]; cleared: Problem[] }> {
  noteRefusal(ctx, report);
  const delta = recordReport(ctx.journal, report, o.looked);
  // An approval of what this report no longer shows waiting (changed again, other deletes) is spent.
  if (!ctx.readOnly) dropStaleApprovals(ctx.journal);
  ctx.logger.info({ report: { ...report, problems: delta.appeared, cleared: delta.cleared.map((p) => p.key) } }, 'cycle report');
  if (o.autoCommit && changedAnything(report)) {
    const committed = await commitMirror({ root: ctx.root, changes: report.changes, now: ctx.now, logger: ctx.logger });
    // Off-site as soon as it can be: the push runs beside the next cycles, never holding them up.
    if (committed.kind === 'committed') o.push?.request();
  }
  return delta;
}

/** Saves the client's counters where `spacesync status` reads them. */
export function saveStats(ctx: SyncContext, startedAt: string): void {
  saveDaemonStats(ctx.journal, { stats: ctx.client.stats(), startedAt, now: ctx.now() });
}

/**
 * Keeps the refusal of a cycle (or of a push of saved files) where `spacesync status` shows it, with
 * what it would have deleted; a full cycle that was not refused clears it. A push that was not
 * refused says nothing about the rest of the folder, nor does a cycle cut short by a stop (it may
 * have ended before the check): they leave it.
 */
function noteRefusal(ctx: SyncContext, report: CycleReport): void {
  if (!report.refusal && (report.scope !== 'cycle' || ctx.signal?.aborted)) return;
  recordRefusal(ctx.journal, report.refusal && { at: report.finishedAt, ...report.refusal, key: deletesKey(report.refusal.deletes) });
}
