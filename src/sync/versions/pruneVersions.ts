// Retention of the version history, at the start of a cycle: versions older than
// `versions.keepDays` go, then the oldest until the rest weighs at most `versions.maxMiB`. A cycle
// with nothing due reads three kept figures, not the history.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { resolveInRoot } from '../../mirror/index.js';
import { VERSIONS_DIR, type SyncContext, type SyncSettings } from '../context/index.js';

export async function pruneVersions(ctx: Pick<SyncContext, 'root' | 'journal' | 'now'> & { settings: Pick<SyncSettings, 'versions'> }): Promise<number> {
  const { keepDays, maxMiB } = ctx.settings.versions;
  const cutoff = ctx.now().getTime() - keepDays * 86_400_000;
  const max = maxMiB * 1024 * 1024;
  // Nothing due (the oldest version is young enough, the whole weighs little enough): the versions
  // themselves are not read. The totals are kept while nothing writes the history.
  const totals = ctx.journal.historyTotals();
  if (totals.oldestAt === null || (Date.parse(totals.oldestAt) >= cutoff && totals.bytes <= max)) return 0;
  const rows = ctx.journal.historySizes();
  let total = rows.reduce((a, r) => a + r.size, 0);
  const drop: typeof rows = [];
  for (const r of rows) {
    if (Date.parse(r.at) >= cutoff && total <= max) break;
    drop.push(r);
    total -= r.size;
  }
  if (drop.length === 0) return 0;
  for (const r of drop) {
    if (r.versionFile === null) continue;
    const abs = resolveInRoot(ctx.root, r.versionFile);
    await fsp.rm(abs, { force: true });
    // The file's folder goes with its last version.
    for (let dir = path.dirname(abs); dir.startsWith(resolveInRoot(ctx.root, VERSIONS_DIR) + path.sep); dir = path.dirname(dir)) {
      if (
        !(await fsp.rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }
  ctx.journal.deleteHistory(drop.map((r) => r.id));
  return drop.length;
}
