// A document the pull writes for the first time: its media assets start downloading as soon as its
// blocks are read, and those that come in within a moment are linked in the file as it is first
// written, their records committed with its base. One write of the file, not a second one to link
// each asset: a first pull's assets then cost it almost nothing beside its reads. What takes longer
// (or fails) is left to the downloads beside the cycles, as for any document (syncMedia).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { downloadDue, type DownloadRetry } from '../../core/media/downloadRetry.js';
import { collisionKey } from '../../core/files/fileName.js';
import { assetFileOf, destinationOf, DOWNLOADED_TYPES, mediaName, unsignedUrl } from '../../core/media/linkAssets.js';
import type { Block } from '../../dialect/index.js';
import { resolveForWrite } from '../../mirror/index.js';
import { assetDownloadsOf, MEDIA_BASE, type ArrivedAssets, type MediaRecord, type SyncContext } from '../context/index.js';
import { assetStat } from './reuploadAsset.js';
import { reportInPull } from './applyBesidePull.js';
import { failedDownload } from './failedDownload.js';
import { MEDIA_RETRY } from './mediaRecord.js';

/** How long the pull of a new document waits for its assets before it writes the file without them. */
export const NEW_ASSETS_WAIT_MS = 500;

/** The media blocks of `root` with a signed URL whose asset may be downloaded now. */
function wantedOf(ctx: SyncContext, root: Block): Array<{ id: string; type: string; markdown: string; url: string }> {
  const out: Array<{ id: string; type: string; markdown: string; url: string }> = [];
  const walk = (b: Block) => {
    for (const c of b.content ?? []) {
      const url = c.markdown === undefined ? null : destinationOf(c.markdown);
      if (DOWNLOADED_TYPES.has(c.type) && url !== null && /^https?:\/\//i.test(url)) {
        const retry = ctx.journal.getState<DownloadRetry>(`${MEDIA_RETRY}${c.id}`);
        if (downloadDue(retry, unsignedUrl(url), ctx.now(), ctx.settings.assets.maxMiB)) out.push({ id: c.id, type: c.type, markdown: c.markdown!, url });
      }
      walk(c);
    }
  };
  walk(root);
  return out;
}

/**
 * Downloads the assets of the new document `docId` (its blocks as read: `root`; its file: `docPath`)
 * and waits up to NEW_ASSETS_WAIT_MS for them; null when it has none to download.
 */
export async function awaitNewAssets(ctx: SyncContext, docId: string, docPath: string, root: Block): Promise<ArrivedAssets | null> {
  if (ctx.readOnly) return null;
  const wanted = wantedOf(ctx, root);
  if (wanted.length === 0) return null;
  const downloads = assetDownloadsOf(ctx);
  for (const w of wanted) downloads.want(w.id, docId, w.url);
  const ids = new Set(wanted.map((w) => w.id));
  await downloads.settledFor([...ids], NEW_ASSETS_WAIT_MS);
  const fetched = downloads.take((f) => f.docId === docId && ids.has(f.blockId));
  const byId = new Map(wanted.map((w) => [w.id, w]));
  const records = new Map<string, MediaRecord>();
  const moves: Array<{ tmp: string; file: string; hash: string }> = [];
  const writes: Array<() => void> = [];
  const dropped: string[] = [];
  const taken = new Set<string>();
  const dir = assetFileOf(docPath, '').slice(0, -1);
  for (const f of fetched) {
    const w = byId.get(f.blockId)!;
    const url = unsignedUrl(f.url);
    if (unsignedUrl(w.url) !== url) {
      if (f.ok) dropped.push(f.tmp);
      continue;
    }
    if (!f.ok) {
      if (f.reason === 'stopped') continue;
      const label = `${dir}/${f.reason === 'too_large' ? mediaName({ id: f.blockId, type: w.type, markdown: w.markdown }, f.ext, taken) : `(${w.type} ${f.blockId})`}`;
      const { retry, message } = failedDownload(ctx, f, w.type, label, url);
      writes.push(() => ctx.journal.setState(`${MEDIA_RETRY}${f.blockId}`, retry));
      reportInPull(ctx, { failed: [{ blockId: f.blockId, file: label, message }] });
      continue;
    }
    const name = mediaName({ id: f.blockId, type: w.type, markdown: w.markdown }, f.ext, taken);
    taken.add(collisionKey(name));
    const file = `${dir}/${name}`;
    records.set(f.blockId, { docId, name, file, hash: f.hash, url, signedUrl: f.url });
    moves.push({ tmp: f.tmp, file, hash: f.hash });
  }
  await Promise.all(dropped.map((t) => fsp.rm(t, { force: true })));
  const stats = new Map<string, { size: number; mtimeMs: number }>();
  return {
    records,
    async place() {
      for (const m of moves) {
        const abs = resolveForWrite(ctx.root, m.file);
        await fsp.mkdir(path.dirname(abs), { recursive: true });
        ctx.ownWrites.note(m.file, m.hash);
        await fsp.rename(m.tmp, abs);
        const st = await assetStat(ctx.root, m.file);
        if (st) stats.set(m.file, st);
      }
      reportInPull(ctx, { downloaded: moves.map((m) => m.file) });
    },
    record() {
      for (const w of writes) w();
      for (const [id, rec] of records) {
        ctx.journal.setState(`${MEDIA_BASE}${id}`, { ...rec, ...stats.get(rec.file) });
        ctx.journal.deleteState(`${MEDIA_RETRY}${id}`);
      }
    },
    async discard() {
      await Promise.all(moves.map((m) => fsp.rm(m.tmp, { force: true })));
    },
  };
}
