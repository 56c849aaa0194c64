// Backup mode (`"mode": "backup"`): everything from the space arrives, nothing is sent to it. The
// cycle's push is only a look at what changed here: each change (edited, new, deleted, moved) is
// kept in its file and held back, listed by status and the report as "changed here, not sent", until
// `spacesync revert` puts the space's version back (or the space changes that document: its
// version is written over the file, the file's bytes kept in the version history first).
import { emptyPlan, scanLocal, type PushResult } from '../documents/index.js';
import type { HeldBackFile, SyncContext } from '../context/index.js';
import { recordBackupKept, recordHeldBack } from '../context/index.js';

export const isBackup = (ctx: Pick<SyncContext, 'settings'>): boolean => ctx.settings.mode === 'backup';

const said = (path: string, what: string): HeldBackFile => ({
  path,
  reason: 'backup',
  message: `"${path}" ${what}, not sent (backup mode): the folder keeps it as it is; \`spacesync revert "${path}"\` puts the space's version back.`,
});

/** The push of a backup mirror: what changed here, held back, nothing sent. */
export async function keptHere(ctx: SyncContext, paths?: readonly string[]): Promise<PushResult> {
  const scan = await scanLocal(ctx, paths ? { paths } : {});
  const kept: HeldBackFile[] = [
    ...scan.changed.map((c) => said(c.local.path, c.moved ? `moved here from ${c.record.path}` : 'edited here')),
    ...scan.added.map((d) => said(d.path, 'made here')),
    ...scan.missing.map((r) => said(r.path, 'deleted here')),
  ];
  const heldBack = [...scan.heldBack, ...kept];
  if (!ctx.readOnly) {
    recordHeldBack(ctx.journal, heldBack, paths);
    // What a switch to two-way mode holds back once (scanLocal): each change with the file's hash now.
    const hashes: Record<string, string | null> = {};
    for (const c of scan.changed) hashes[c.local.path] = c.local.hash;
    for (const d of scan.added) hashes[d.path] = d.hash;
    for (const r of scan.missing) hashes[r.path] = null;
    recordBackupKept(ctx.journal, hashes, paths);
  }
  return { plan: { ...emptyPlan(), heldBack, problems: scan.problems }, outcome: null, requests: 0 };
}
