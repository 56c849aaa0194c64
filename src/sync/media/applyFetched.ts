// Puts downloaded assets into place between operations: each temp file renamed into its
// document's `.assets` folder while it is still the asset its block holds, its record (or, for a
// failure, its retry) written, and the document's lines linked; the journal's writes of a pass in
// one transaction, files written a few at a time so their syncs to disk overlap.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { assetFileOf, assetLinkOf, destinationOf, mediaName, unsignedUrl, withDestination } from '../../core/media/linkAssets.js';
import { collisionKey } from '../../core/files/fileName.js';
import { hashBlock } from '../../core/merge/hashBlock.js';
import type { BaseBlock } from '../../core/types.js';
import { readMirrorFile, resolveForWrite, writeFileIfUnchanged } from '../../mirror/index.js';
import { MEDIA_BASE, pathExists, type FetchedAsset, type MediaRecord, type SyncContext } from '../context/index.js';
import { MEDIA_RETRY, type MediaSyncResult } from './mediaRecord.js';
import { assetStat } from './reuploadAsset.js';
import { failedDownload } from './failedDownload.js';

/** Files written at once when a pass puts assets in place or links them: their syncs to disk overlap. */
const WRITERS = 8;

/** Runs `work` on each of `items`, `WRITERS` at a time. */
async function eachAtOnce<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(WRITERS, items.length) }, worker));
}

export async function relinkAll(
  ctx: SyncContext,
  relink: ReadonlyMap<string, ReadonlySet<string>>,
  result: MediaSyncResult,
  bases: ReadonlyMap<string, readonly BaseBlock[]>,
): Promise<void> {
  const writes: Array<() => void> = [];
  await eachAtOnce([...relink], async ([docId, ids]) => {
    const write = await relinkDocument(ctx, docId, ids, bases.get(docId));
    if (!write) return;
    writes.push(write);
    result.linked.push(ctx.journal.getDocument(docId)!.path);
  });
  // One transaction for them all: one write to disk, however many documents.
  if (writes.length > 0) ctx.journal.transaction(() => writes.forEach((w) => w()));
}

/**
 * Puts the downloads that ended into place and records them (in one transaction), each only while
 * it is still the asset its block holds (else its bytes are dropped); a failure is recorded for its
 * retry. The blocks whose line is to link its new file are added to `relink`. Documents at once,
 * the assets of one document one after the other (their names must not meet).
 */
export async function applyFetched(
  ctx: SyncContext,
  fetched: readonly FetchedAsset[],
  result: MediaSyncResult,
  relink: Map<string, Set<string>>,
  bases: Map<string, BaseBlock[]>,
): Promise<void> {
  const writes: Array<() => void> = [];
  /** Names given in this pass, per document (not recorded yet). */
  const named = new Map<string, Set<string>>();
  const byDoc = new Map<string, FetchedAsset[]>();
  for (const f of fetched) {
    const had = byDoc.get(f.docId);
    if (had) had.push(f);
    else byDoc.set(f.docId, [f]);
  }
  await eachAtOnce([...byDoc.values()], async (list) => {
    // The document's base, read once for all its assets.
    const base = ctx.journal.getBaseBlocks(list[0]!.docId);
    bases.set(list[0]!.docId, base);
    for (const f of list) {
      const kept = await applyOne(ctx, f, base, result, writes, named);
      if (!kept && f.ok) await fsp.rm(f.tmp, { force: true });
      if (kept === 'relink') relink.set(f.docId, (relink.get(f.docId) ?? new Set()).add(f.blockId));
    }
  });
  if (writes.length > 0) ctx.journal.transaction(() => writes.forEach((w) => w()));
}

async function applyOne(
  ctx: SyncContext,
  f: FetchedAsset,
  base: readonly BaseBlock[],
  result: MediaSyncResult,
  writes: Array<() => void>,
  named: Map<string, Set<string>>,
): Promise<false | 'kept' | 'relink'> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(f.docId);
  const block = doc && doc.fileHash !== null ? base.find((b) => b.id === f.blockId) : undefined;
  const dest = block ? destinationOf(block.markdown) : null;
  if (!doc || !block || dest === null) return false;
  const rec = journal.getState<MediaRecord>(`${MEDIA_BASE}${f.blockId}`);
  // The line links its asset already: the download writes a file deleted by hand again.
  const linked = !/^https?:\/\//i.test(dest);
  const url = unsignedUrl(f.url);
  if ((linked ? rec?.url : unsignedUrl(dest)) !== url || !(await pathExists(root, doc.path))) return false;
  const dir = assetFileOf(doc.path, '').slice(0, -1);
  // The other assets of the document keep their names.
  const taken = new Set(
    journal
      .mediaBlocksOf(f.docId)
      .filter((id) => id !== f.blockId)
      .map((id) => journal.getState<MediaRecord>(`${MEDIA_BASE}${id}`)?.name)
      .filter((n): n is string => n !== undefined)
      .map(collisionKey),
  );
  for (const n of named.get(f.docId) ?? []) taken.add(n);
  const nameFor = (ext: string) =>
    rec && rec.name.endsWith(ext) ? rec.name : mediaName({ id: f.blockId, type: block.type, markdown: block.markdown }, ext, taken);
  if (!f.ok) {
    if (f.reason === 'stopped') return false;
    const label = `${dir}/${f.reason === 'too_large' ? nameFor(f.ext) : (rec?.name ?? `(${block.type} ${f.blockId})`)}`;
    const { retry, message } = failedDownload(ctx, f, block.type, label, url);
    writes.push(() => journal.setState(`${MEDIA_RETRY}${f.blockId}`, retry));
    result.failed.push({ blockId: f.blockId, file: label, message });
    return false;
  }
  // An asset the file changed since the sync wrote it is not written over.
  const old = rec ? await readMirrorFile(root, rec.file) : null;
  if (rec && old !== null && old.hash !== rec.hash) return false;
  const name = nameFor(f.ext);
  named.set(f.docId, (named.get(f.docId) ?? new Set()).add(collisionKey(name)));
  const file = `${dir}/${name}`;
  const abs = resolveForWrite(root, file);
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  ctx.ownWrites.note(file, f.hash);
  await fsp.rename(f.tmp, abs);
  if (rec && rec.file !== file && old !== null) {
    ctx.ownWrites.note(rec.file, null);
    await fsp.rm(resolveForWrite(root, rec.file), { force: true });
  }
  const next: MediaRecord = { docId: f.docId, name, file, hash: f.hash, url, signedUrl: f.url, ...(await assetStat(root, file)) };
  writes.push(() => {
    journal.setState(`${MEDIA_BASE}${f.blockId}`, next);
    journal.deleteState(`${MEDIA_RETRY}${f.blockId}`);
  });
  result.downloaded.push(file);
  return linked ? 'kept' : 'relink';
}

/**
 * Points the lines of `ids` in the document's file at their downloaded assets, and records the
 * linked lines as the base (the same text the pull's `linkAssets` gives the service's blocks, so
 * nothing is sent). Only a file that still holds what the sync last wrote: one edited meanwhile is
 * linked on a later cycle. Returns the journal's write, for the caller to commit with others.
 */
async function relinkDocument(ctx: SyncContext, docId: string, ids: ReadonlySet<string>, known?: readonly BaseBlock[]): Promise<(() => void) | null> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(docId);
  if (!doc || doc.fileHash === null) return null;
  const existing = await readMirrorFile(root, doc.path);
  if (existing === null || existing.text === null || existing.hash !== doc.fileHash) return null;
  let text = existing.text;
  let changed = false;
  const base = (known ?? journal.getBaseBlocks(docId)).map((b) => {
    const rec = ids.has(b.id) ? journal.getState<MediaRecord>(`${MEDIA_BASE}${b.id}`) : undefined;
    const url = destinationOf(b.markdown);
    if (!rec || url === null) return b;
    // The signed URL holds a fresh signature and nonce: once in the file, on this block's line.
    const at = text.indexOf(`](${url})`);
    if (at < 0 || text.indexOf(`](${url})`, at + 1) >= 0) return b;
    const markdown = withDestination(b.markdown, assetLinkOf(doc.path, rec.name));
    text = `${text.slice(0, at)}${withDestination(`[](${url})`, assetLinkOf(doc.path, rec.name)).slice(1)}${text.slice(at + url.length + 3)}`;
    changed = true;
    return { ...b, markdown, hash: hashBlock(markdown, b.kind, b.cardLayout) };
  });
  if (!changed) return null;
  const w = await writeFileIfUnchanged(root, doc.path, text, existing.hash, { ownWrites: ctx.ownWrites });
  if (!w.written) return null;
  return () => {
    journal.upsertDocument({ ...doc, fileHash: w.hash });
    journal.replaceBaseBlocks(docId, base);
  };
}
