// Media up, a replaced asset: the file of a synced media block got new bytes here (same name, same
// line). The service has no way to change an asset's bytes, so the file is uploaded as a new block
// right after the old one, then the old block is deleted; the base takes the new id in the old
// one's place (the line stays as it is) and the media record moves to it. An intent is written
// before the requests, with the new bytes' hash: an upload whose answer was lost is found again by
// resolveUploads (which then deletes the old block), never sent twice.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { unsignedUrl } from '../../core/media/linkAssets.js';
import { contentTypeOf, uploadedTypeOf } from '../../core/media/localReference.js';
import { resolveInRoot } from '../../mirror/index.js';
import { isPerDocumentError, MEDIA_BASE, type MediaRecord, type SyncContext } from '../context/index.js';
import { isSpacesyncError } from '../../errors.js';
import { mayHaveLanded, UPLOAD_OP, type UploadPayload } from './uploadIntent.js';
import { markAltTextUnsent, sendAltText } from './uploadAltText.js';

/** The file's size and modification time, as a media record keeps them to tell a replaced file by its stat; null when it is not a plain file. */
export async function assetStat(root: string, file: string): Promise<{ size: number; mtimeMs: number } | null> {
  const st = await fsp.lstat(resolveInRoot(root, file)).catch(() => null);
  return st?.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : null;
}

export type Reupload = { ok: true; blockId: string } | { ok: false; message: string };

/** Sends the new bytes of block `id`'s asset (`rec`), which the document `docId` holds. */
export async function reuploadAsset(ctx: SyncContext, docId: string, id: string, rec: MediaRecord): Promise<Reupload> {
  const { journal, root } = ctx;
  const maxMiB = ctx.settings.assets.maxMiB;
  const bytes = await fsp.readFile(resolveInRoot(root, rec.file));
  const stat = await assetStat(root, rec.file);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const base = journal.getBaseBlocks(docId);
  const block = base.find((b) => b.id === id);
  if (!block) return { ok: false, message: `"${rec.file}" changed here, but its block is no longer in the document; nothing was sent.` };
  if (hash === rec.hash) {
    journal.setState(`${MEDIA_BASE}${id}`, { ...rec, ...stat });
    return { ok: true, blockId: id };
  }
  if (bytes.length > maxMiB * 1024 * 1024)
    return {
      ok: false,
      message: `"${rec.file}" changed here but is ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB), so it is not uploaded; raise assets.maxMiB in .spacesync/config.json to send it.`,
    };
  const contentType = contentTypeOf(rec.name);
  const type = uploadedTypeOf(contentType);
  const fileName = /^\[([^\]]+)\]/.exec(block.markdown)?.[1];
  const payload: UploadPayload = {
    path: journal.getDocument(docId)?.path ?? '',
    file: rec.file,
    target: { position: 'after', siblingId: id },
    sha256: hash,
    size: bytes.length,
    type,
    replaces: id,
  };
  const intent = journal.addIntent({ docId, op: UPLOAD_OP, payload });
  let blockId: string;
  let assetUrl: string;
  try {
    ({ blockId, assetUrl } = await ctx.client.upload(
      bytes,
      contentType,
      { position: 'after', siblingId: id, ...(type === 'file' && fileName ? { fileName } : {}) },
      { priority: 'user' },
    ));
  } catch (e) {
    if (!isPerDocumentError(e)) throw e;
    if (!mayHaveLanded(e)) journal.clearIntent(intent);
    // Kept when it may have landed: the next push looks for the new block and adopts it (resolveUploads).
    return {
      ok: false,
      message: `The new bytes of "${rec.file}" were not uploaded (${(e as Error).message}); the next cycle ${mayHaveLanded(e) ? 'looks for them in the document first' : 'tries again'}.`,
    };
  }
  try {
    await ctx.client.deleteBlocks({ blockIds: [id] }, { priority: 'user' });
  } catch (e) {
    if (!isPerDocumentError(e) && !isSpacesyncError(e, 'not_found')) throw e;
    if (!isSpacesyncError(e, 'not_found')) {
      // The intent stays: the next push finds the new block, adopts it and deletes the old one.
      return { ok: false, message: `The old block of "${rec.file}" was not deleted (${(e as Error).message}); the next cycle finishes the replacement.` };
    }
  }
  // The new block has the service's alt text: the line's goes after it, as for a new reference.
  const alt = await sendAltText(ctx, { id: blockId, type, markdown: block.markdown, file: rec.file, assetUrl });
  const next = base.map((b) => (b.id === id ? { ...b, id: blockId, markdown: alt.recorded, hash: hashBlock(alt.recorded, b.kind) } : b));
  journal.transaction(() => {
    journal.replaceBaseBlocks(docId, next);
    journal.deleteState(`${MEDIA_BASE}${id}`);
    journal.setState(`${MEDIA_BASE}${blockId}`, { ...rec, hash, url: unsignedUrl(assetUrl), signedUrl: assetUrl, ...stat } satisfies MediaRecord);
    journal.clearIntent(intent);
    if (!alt.sent) markAltTextUnsent(ctx, docId);
  });
  ctx.logger.info({ file: rec.file, blockId, replaced: id }, `uploaded the new bytes of ${rec.file} (block ${id} replaced by ${blockId})`);
  return { ok: true, blockId };
}
