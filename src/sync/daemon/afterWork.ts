// What follows every cycle or push, for the daemon and `sync --once` alike: the files it changed
// go into a git backup (when asked), and the counters `spacesync status` shows are saved.
import { recordRefusal, saveDaemonStats } from '../../journal/daemonStatus.js';
import type { SyncContext } from '../context/index.js';
import { commitMirror } from './gitBackup.js';
import type { PushResult } from '../documents/index.js';
import type { SyncOnceResult } from '../cycle/index.js';
import type { MediaSyncResult } from '../media/index.js';

export interface CycleFile {
  path: string;
  title: string;
  /** Changed here and sent, or changed in the space and pulled. */
  side: 'local' | 'remote';
}

/** The documents a full cycle changed on either side: sent (edited, renamed, deleted here), pulled, moved or purged. */
export function filesOfCycle(ctx: SyncContext, r: SyncOnceResult): CycleFile[] {
  const pull = r.pull;
  const remote = [
    ...(pull?.written ?? []).map((x) => x.path),
    ...(pull?.moved ?? []).flatMap((m) => [m.to, m.from]),
    ...(pull?.folderMoves ?? []).flatMap((m) => [m.to, m.from]),
    ...(pull?.purged ?? []).map((p) => p.from),
    // Documents whose file now links a downloaded asset: the commit takes the asset with them.
    ...(r.media?.linked ?? []),
    ...(r.tasks?.written ?? []),
  ];
  return [...filesOfPush(ctx, r.push), ...titled(ctx, remote, 'remote')];
}

/** The documents whose file now links an asset downloaded between the cycles (the commit takes the asset with them). */
export function filesOfMedia(ctx: SyncContext, r: MediaSyncResult): CycleFile[] {
  return titled(ctx, r.linked, 'remote');
}

/** The documents a push sent: every one of them changed here (and some were rewritten by the merge). */
export function filesOfPush(ctx: SyncContext, r: PushResult): CycleFile[] {
  return titled(
    ctx,
    (r.outcome?.documents ?? []).map((d) => d.path),
    'local',
  );
}

function titled(ctx: SyncContext, paths: string[], side: CycleFile['side']): CycleFile[] {
  return [...new Set(paths)].map((p) => ({ path: p, side, title: ctx.journal.getDocumentByPath(p)?.title ?? p.replace(/^.*\//, '').replace(/\.md$/, '') }));
}

/** One git commit of the mirror when `autoCommit` is on and something changed; never throws. */
export async function backUp(ctx: SyncContext, changed: CycleFile[], autoCommit: boolean): Promise<void> {
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
export function noteRefusal(ctx: SyncContext, r: { cycle: SyncOnceResult } | { push: PushResult }): void {
  const refusal = 'cycle' in r ? (r.cycle.push.plan.refused ?? r.cycle.pull?.refused ?? null) : r.push.plan.refused;
  if (!refusal && !('cycle' in r)) return;
  recordRefusal(
    ctx.journal,
    refusal && {
      at: ctx.now().toISOString(),
      reason: refusal.reason,
      message: refusal.message,
      deletes: refusal.deletes ?? [],
    },
  );
}
