// One plan for the cycle: what `spacesync plan`, `plan --json` and `sync --dry-run` print, each
// slice adding its part in the order the cycle runs them (cycle/slices.ts: planCycle). Here, its
// shape and the documents' parts: the push's (requests, what is held back, refusals, files it
// rewrites) and the pull's (files written, moved, removed, and the assets and scene files of the
// documents it writes). Planning reads (listings, the documents it would write, each asset's
// headers) and writes nothing, sends no writing request.
import { linkAssets, assetFileOf, destinationOf, mediaName, sceneFileOf, unsignedUrl, DOWNLOADED_TYPES } from '../../core/media/linkAssets.js';
import type { Change, Problem } from '../../core/report/cycleReport.js';
import type { SafetyRefusal } from '../../core/push/safety.js';
import type { Block } from '../../dialect/index.js';
import { promises as fsp } from 'node:fs';
import { isBuiltinIgnored, readMirrorFile } from '../../mirror/index.js';
import { assetExtension, mediaRecordOf, type SyncContext } from '../context/index.js';
import { emptyPlan, listRemote, overwriteDetail, pushPart, readPullPlan, type PushResult } from '../documents/index.js';
import { pushLocal } from './pullAndPush.js';
import { isBackup, keptHere } from './backupMode.js';
import type { PullPlan } from '../../core/pull/PullPlan.js';

export interface CyclePlan {
  /** A safety check would stop the cycle here: nothing is sent or written. */
  refusal: SafetyRefusal | null;
  /** What would change, on which side, by title (the report's words, said as what would happen). */
  changes: Change[];
  /** Every file of the mirror the cycle would write (created or rewritten), moved into place, or remove. */
  files: { write: string[]; move: Array<{ from: string; to: string }>; remove: string[] };
  /** Directories of folders it would create, move or remove. */
  folders: { create: string[]; move: Array<{ from: string; to: string }>; remove: string[] };
  /** The writing requests of the push, in the order it sends them. */
  requests: Array<{ method: string; path: string; describe: string }>;
  /** What would be held back or not sent, and conflicts it would keep. */
  problems: Problem[];
  conflicts: string[];
  /** Interrupted requests of an earlier run, settled first. */
  pendingIntents: number;
  /** What the cycle does before its slices (a mirror found without its journal is adopted first). */
  notes: string[];
  /** Requests made to plan (reads only). */
  reads: number;
  /** The documents' steps, as data (for scripts: `plan --json`). */
  pull: PullPlan | null;
  push: PushResult['plan'];
}

export const emptyCyclePlan = (): CyclePlan => ({
  refusal: null,
  changes: [],
  files: { write: [], move: [], remove: [] },
  folders: { create: [], move: [], remove: [] },
  requests: [],
  problems: [],
  conflicts: [],
  pendingIntents: 0,
  notes: [],
  reads: 0,
  pull: null,
  push: emptyPlan(),
});

/** A mirror of files whose journal never synced (none, or an empty one): the next cycle adopts it first. */
export async function adoptionAhead(ctx: SyncContext): Promise<boolean> {
  if (ctx.journal.hasListing() || ctx.journal.counts().documents > 0) return false;
  const names = await fsp.readdir(ctx.root).catch(() => [] as string[]);
  return names.some((n) => !isBuiltinIgnored(n));
}

/** The documents' push: the requests it would send, what it holds back or refuses, by title, and the files it would write. */
export async function documentsPushPlan(ctx: SyncContext, plan: CyclePlan): Promise<void> {
  const listing = async () => {
    const s = await listRemote(ctx);
    return { documents: s.documents, placements: s.placements, folders: s.folders };
  };
  const backup = isBackup(ctx);
  const push = backup ? await keptHere(ctx) : await pushLocal(ctx, { dryRun: true, listing });
  plan.push = push.plan;
  plan.refusal = push.plan.refused;
  plan.requests.push(...push.plan.steps.filter((s) => s.method !== 'GET').map((s) => ({ method: s.method, path: s.path, describe: s.describe })));
  // The files whose tables the tables' plan reported on: their problems are said once, as the run says them.
  const tableFiles = new Set(plan.problems.filter((p) => p.key.startsWith('table:')).map((p) => p.path));
  plan.problems.push(...(pushPart(push, tableFiles).problems ?? []));
  plan.conflicts.push(...push.plan.tasks.filter((t) => (t.file?.merge.conflicts.length ?? 0) > 0).map((t) => t.next.path));
  plan.pendingIntents = push.plan.pendingIntents;
  if (backup)
    plan.notes.push(
      'Backup mode: nothing is sent to the space; what changed here stays in its files, and a document the space changed too is written over (the file kept in the version history).',
    );
  if (!push.plan.refused) planPushFiles(push, plan);
}

/** The documents' pull: files written, moved and removed, with the assets and scene files of those it writes; or its refusal. */
export async function documentsPullPlan(ctx: SyncContext, plan: CyclePlan): Promise<void> {
  const reading = await readPullPlan(ctx);
  if (reading.refused) plan.refusal = reading.refused;
  else if (reading.plan) await planPullFiles(ctx, reading.plan, plan);
}

/** The push's side: what it sends, by title, and the files it would write (a merge's result, a file brought back, a conflict copy). */
function planPushFiles(push: PushResult, plan: CyclePlan): void {
  for (const t of push.plan.tasks) {
    const d = t.decision;
    const title = t.next.title;
    const change = (action: Change['action'], more: Partial<Change> = {}) =>
      plan.changes.push({ kind: 'document', side: 'local', action, path: t.next.path, title, ...more });
    if (d.create) change('created');
    else if (d.trash) change('deleted', { detail: "moved to the space's trash" });
    else if (d.rename !== undefined) change('renamed', { from: t.record?.title ?? '' });
    else if (d.move) change('moved', { from: t.record?.path ?? '' });
    else if (d.content === 'push' || d.content === 'merge') change('updated');
    if (d.rewrite || (d.content === 'merge' && t.file?.merge.fileChanged)) plan.files.write.push(t.next.path);
    if (t.uploads) plan.changes.push({ kind: 'asset', side: 'local', action: 'uploaded', path: t.next.path, title, detail: 'the files it references' });
  }
  const f = push.plan.folders;
  if (f) {
    for (const c of f.creates) plan.changes.push({ kind: 'folder', side: 'local', action: 'created', path: c.path, title: c.path });
    for (const x of f.deletes) plan.changes.push({ kind: 'folder', side: 'local', action: 'deleted', path: x.path, title: x.path });
  }
}

/** The pull's side: files written, moved and removed; then, for the documents it writes, their assets and scene files. */
async function planPullFiles(ctx: SyncContext, pull: PullPlan, plan: CyclePlan): Promise<void> {
  plan.pull = pull;
  for (const s of pull.folders) {
    if (s.kind === 'create') plan.folders.create.push(s.path);
    else if (s.kind === 'move') plan.folders.move.push({ from: s.from, to: s.to });
    else plan.folders.remove.push(s.path);
  }
  const read: Array<{ id: string; path: string }> = [];
  for (const s of pull.documents) {
    const where = s.kind === 'move' ? s.to : s.path;
    const title = ctx.journal.getDocument(s.id)?.title ?? where.replace(/^.*\//, '').replace(/\.md$/, '');
    if (s.kind === 'write' || s.kind === 'splice') {
      plan.files.write.push(s.path);
      if (s.kind === 'write' && s.reason === 'backup_overwrite')
        plan.changes.push({ kind: 'document', side: 'remote', action: 'updated', path: s.path, title, detail: overwriteDetail(s.path) });
      else plan.changes.push({ kind: 'document', side: 'remote', action: s.kind === 'write' ? 'created' : 'updated', path: s.path, title });
      read.push({ id: s.id, path: s.path });
    } else if (s.kind === 'move' && s.reason !== 'found_there') {
      plan.files.move.push({ from: s.from, to: s.to });
      plan.changes.push({ kind: 'document', side: 'remote', action: 'moved', path: s.to, title, from: s.from });
    } else if (s.kind === 'purge') {
      plan.files.remove.push(s.path);
      plan.changes.push({ kind: 'document', side: 'remote', action: 'purged', path: s.path, title });
    } else if (s.kind === 'blocked') {
      plan.problems.push({
        key: `blocked:${s.path}`,
        path: s.path,
        severity: 'held',
        message: `"${s.path}" waits for the next cycle (${s.reason.replace('_', ' ')}).`,
      });
    }
  }
  await planAssetsOf(ctx, read, plan);
}

/**
 * The assets and scene files the documents the pull writes would bring: each media block without
 * its asset here (the asset's name needs its type: its headers are read), each whiteboard's scene.
 */
async function planAssetsOf(ctx: SyncContext, docs: ReadonlyArray<{ id: string; path: string }>, plan: CyclePlan): Promise<void> {
  const media = mediaRecordOf(ctx.journal);
  for (const d of docs) {
    let root: Block;
    try {
      root = await ctx.client.getBlocks({ id: d.id }, { priority: 'bulk' });
    } catch {
      continue; // gone or failing: the cycle says so when it pulls
    }
    const linked = linkAssets(root, d.path, media);
    const taken = new Set<string>();
    const visit = async (b: Block): Promise<void> => {
      if (b.type === 'whiteboard') {
        const scene = sceneFileOf(b.markdown ?? '', d.path);
        if (scene && (await readMirrorFile(ctx.root, scene)) === null) {
          plan.files.write.push(scene);
          plan.changes.push({ kind: 'scene', side: 'remote', action: 'created', path: scene, title: scene.replace(/^.*\//, '') });
        }
      } else if (DOWNLOADED_TYPES.has(b.type) && b.markdown !== undefined) {
        const url = destinationOf(b.markdown);
        const rec = media(b.id);
        if (url !== null && /^https?:\/\//i.test(url) && !(rec && rec.url === unsignedUrl(url))) {
          const ext = await assetExtension(url, ctx.signal);
          if (ext !== null) {
            const name = mediaName({ id: b.id, type: b.type, markdown: b.markdown }, ext, taken);
            taken.add(name.toLowerCase());
            const file = assetFileOf(d.path, name);
            plan.files.write.push(file);
            plan.changes.push({ kind: 'asset', side: 'remote', action: 'downloaded', path: file, title: name });
          }
        }
      }
      for (const c of b.content ?? []) await visit(c);
    };
    await visit(linked);
  }
}
