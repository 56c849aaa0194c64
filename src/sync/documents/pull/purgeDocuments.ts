// Documents gone from every listing (purged from the space's trash) leave the mirror, but their
// files are never just deleted: they move to `.spacesync/purged/<date>/` and stay there for
// `trashRetentionDays`. Which documents are purged is the pull's plan's decision (a file changed
// locally is kept for the merge).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { dirOfPath } from '../../../core/files/fileName.js';
import { moveFileAtomic } from '../../../mirror/index.js';
import type { SyncContext } from '../../context/index.js';
import { pathExists } from '../../context/index.js';
import { stateRelPath } from '../../../stateDir.js';

export const PURGED_DIR = stateRelPath('purged');

export interface PurgeOutcome {
  /** Files moved out of the mirror: document id, where it was, where it is kept. */
  purged: Array<{ id: string; from: string; to: string | null }>;
  vacated: Set<string>;
}

async function keepName(root: string, relPath: string): Promise<string> {
  if (!(await pathExists(root, relPath))) return relPath;
  const stem = relPath.replace(/\.md$/, '');
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n}).md`;
    if (!(await pathExists(root, candidate))) return candidate;
  }
}

export async function purgeDocuments(ctx: SyncContext, ids: readonly string[]): Promise<PurgeOutcome> {
  const out: PurgeOutcome = { purged: [], vacated: new Set() };
  const day = ctx.now().toISOString().slice(0, 10);
  for (const id of ids) {
    const rec = ctx.journal.getDocument(id);
    if (!rec) continue;
    let to: string | null = null;
    if (rec.fileHash !== null) {
      to = await keepName(ctx.root, `${PURGED_DIR}/${day}/${rec.path}`);
      const moved = await moveFileAtomic(ctx.root, rec.path, to, { ownWrites: ctx.ownWrites });
      if (!moved.ok) {
        // Gone since it was hashed (a local delete): nothing to keep, the record goes.
        to = null;
      }
    }
    ctx.journal.deleteDocument(id);
    if (dirOfPath(rec.path)) out.vacated.add(dirOfPath(rec.path));
    out.purged.push({ id, from: rec.path, to });
    ctx.logger.info({ doc: id, from: rec.path, keptAt: to }, 'document purged from the space; file kept aside');
  }
  return out;
}

/** Removes the kept files of purges older than the retention. Returns the days removed. */
export async function prunePurged(ctx: SyncContext): Promise<string[]> {
  const dir = path.join(ctx.root, ...PURGED_DIR.split('/'));
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  const cutoff = new Date(ctx.now().getTime() - ctx.settings.trashRetentionDays * 86_400_000).toISOString().slice(0, 10);
  const removed: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !/^\d{4}-\d{2}-\d{2}$/.test(e.name) || e.name >= cutoff) continue;
    await fsp.rm(path.join(dir, e.name), { recursive: true, force: true });
    removed.push(e.name);
  }
  return removed;
}
