// Media up: a new block of a file that references a local file (core/media/localReference) becomes an
// image, video or file block through `POST /upload` (a whiteboard for a scene file, drawScene: the whiteboards slice's),
// at its place among the document's blocks
// (after the block before it, else first in its parent). The push leaves such blocks to this step
// (uploadDialect). A referenced file outside the document's `.assets` folder is first copied into
// it and the line pointed at the copy, so the pull writes the same line back. The journal records
// the new block in the base with the line as the file has it, and the asset like a downloaded one
// (media record: URL, name, file, hash), so nothing is downloaded or sent for it afterwards. An
// intent is written before each upload, with the file's hash and where it was aimed: an upload whose
// answer was lost is found again by resolveUploads, never sent twice. An image's alt text, which
// the upload cannot carry, follows by `PUT /blocks` (uploadAltText). Symbolic links, paths outside the mirror and files over
// assets.maxMiB are not uploaded: the line stays in the file, unsent, and the message says why.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { coreDialect } from '../../core/merge/coreDialect.js';
import { diffDocument, type DiffNode } from '../../core/merge/diff.js';
import { dirOfPath } from '../../core/files/fileName.js';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { insertBase } from '../../core/merge/insertBase.js';
import { assetFileOf, assetLinkOf, SCENE_EXT, unsignedUrl, withDestination } from '../../core/media/linkAssets.js';
import { contentTypeOf, localReferenceOf, resolveReference, uploadedTypeOf } from '../../core/media/localReference.js';
import { segmentFile } from '../../dialect/index.js';
import { isPerDocumentError } from '../context/index.js';
import { readMirrorFile, resolveInRoot, writeFileAtomic, writeFileIfUnchanged } from '../../mirror/index.js';
import { MEDIA_BASE, type DrawScene, type MediaRecord, type SyncContext } from '../context/index.js';
import type { Journal } from '../../journal/index.js';
import { assetStat } from './reuploadAsset.js';
import { hasPendingUpload, mayHaveLanded, UPLOAD_OP, type UploadPayload } from './uploadIntent.js';
import { markAltTextUnsent, sendAltText } from './uploadAltText.js';
import { FILE_ONLY } from '../../log.js';

/** State key prefix: a document with references not uploaded yet (looked at again each cycle). */
export const UPLOADS_PENDING = 'uploads-pending:';

/** Marks a document whose file references local files to upload (the push left them out). */
export const markUploadsPending = (journal: Journal, docId: string): void => journal.setState(`${UPLOADS_PENDING}${docId}`, true);

export interface UploadResult {
  /** Files uploaded (relative to the root). */
  uploaded: string[];
  /** References not uploaded, and why. */
  failed: Array<{ path: string; file: string; message: string }>;
}

interface Candidate {
  node: DiffNode;
  parentId: string | null;
  /** The nodes before it among its siblings, nearest first. */
  before: DiffNode[];
}

/** The new blocks of the file that reference a local file, in file order. */
function candidatesOf(nodes: readonly DiffNode[], parentId: string | null, out: Candidate[] = []): Candidate[] {
  nodes.forEach((n, i) => {
    if (n.id === null && n.local.kind === 'block' && localReferenceOf(n.local.markdown)) out.push({ node: n, parentId, before: nodes.slice(0, i).reverse() });
    if (n.id !== null && n.children.length > 0) candidatesOf(n.children, n.id, out);
  });
  return out;
}

async function hashOf(abs: string): Promise<{ bytes: Buffer; hash: string }> {
  const bytes = await fsp.readFile(abs);
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex') };
}

/** A free name in the folder `dir` for `name` (`x.png`, else `x-2.png`, …). */
async function freeName(root: string, dir: string, name: string): Promise<string> {
  const ext = path.posix.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem}-${n}${ext}`;
    try {
      await fsp.lstat(resolveInRoot(root, `${dir}/${candidate}`));
    } catch {
      return candidate;
    }
  }
}

/** Uploads the references of the documents the push marked (markUploadsPending); a document keeps its mark while some are left. */
export async function uploadReferences(ctx: SyncContext, drawScene: DrawScene): Promise<UploadResult> {
  const result: UploadResult = { uploaded: [], failed: [] };
  if (ctx.readOnly) return result;
  const ids = Object.keys(ctx.journal.statesWithPrefix<true>(UPLOADS_PENDING));
  for (const docId of ids) {
    if (ctx.signal?.aborted) break;
    const left = await uploadDocument(ctx, docId, result, drawScene);
    if (left) ctx.journal.setState(`${UPLOADS_PENDING}${docId}`, true);
    else ctx.journal.deleteState(`${UPLOADS_PENDING}${docId}`);
  }
  return result;
}

/** Uploads the document's references; true when some are left (not uploaded: tried again next cycle). */
async function uploadDocument(ctx: SyncContext, docId: string, result: UploadResult, drawScene: DrawScene): Promise<boolean> {
  const { journal, root } = ctx;
  const doc = journal.getDocument(docId);
  if (!doc || doc.fileHash === null) return false;
  // An upload of an earlier run may have landed: the push looks for it first (resolveUploads).
  if (hasPendingUpload(journal, docId)) return true;
  const read = await readMirrorFile(root, doc.path);
  if (read === null || read.text === null) return false;
  let text = read.text;
  let fileHash = read.hash;
  let base = journal.getBaseBlocks(docId);
  const diff = diffDocument(base, segmentFile(text).segments, { equals: coreDialect.equals });
  const candidates = candidatesOf(diff.nodes, null);
  if (candidates.length === 0) return false;
  const rootReal = await fsp.realpath(root);
  const assetsDir = assetFileOf(doc.path, '').slice(0, -1);
  const maxMiB = ctx.settings.assets.maxMiB;
  /** Ids the uploads of this run gave to nodes of the file. */
  const given = new Map<DiffNode, string>();
  let left = false;
  const fail = (file: string, message: string, retry: boolean) => {
    result.failed.push({ path: doc.path, file, message });
    ctx.logger.warn({ ...FILE_ONLY, file: doc.path, asset: file }, message); // the cycle's report says it
    if (retry) left = true;
  };
  for (const c of candidates) {
    if (ctx.signal?.aborted) return true;
    const ref = localReferenceOf(c.node.local.markdown)!;
    const file = resolveReference(doc.path, ref.dest);
    if (file === null) {
      fail(
        ref.dest,
        `"${ref.dest}" in ${doc.path} points outside the mirror, so it is not uploaded; the line stays in the file, unsent. Move the file into "${assetsDir}/" and link it from there.`,
        false,
      );
      continue;
    }
    const st = await fsp.lstat(resolveInRoot(root, file)).catch(() => null);
    if (st === null) continue; // gone since the push: the next push sends the line as text
    if (st.isSymbolicLink()) {
      fail(
        file,
        `"${file}" (linked from ${doc.path}) is a symbolic link, which spacesync does not follow, so it is not uploaded; the line stays in the file, unsent. Put the file itself there to upload it.`,
        false,
      );
      continue;
    }
    const real = await fsp.realpath(resolveInRoot(root, file)).catch(() => null);
    if (!st.isFile() || real === null || !real.startsWith(`${rootReal}${path.sep}`)) {
      fail(file, `"${file}" (linked from ${doc.path}) is not a file inside the mirror, so it is not uploaded; the line stays in the file, unsent.`, false);
      continue;
    }
    if (st.size > maxMiB * 1024 * 1024) {
      fail(
        file,
        `"${file}" (linked from ${doc.path}) is ${(st.size / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB), so it is not uploaded; the line stays in the file, unsent. Raise assets.maxMiB in .spacesync/config.json to upload it.`,
        true,
      );
      continue;
    }
    const parentId = c.parentId ?? docId;
    // After the nearest block before it that the space has (lines held back are skipped), else first in its parent.
    let prev: string | null = null;
    for (const b of c.before) {
      prev = b.id ?? given.get(b) ?? null;
      if (prev !== null) break;
    }
    // The asset lives in the document's .assets folder, where the pull links it.
    let name = path.posix.basename(file);
    let markdown = c.node.local.markdown;
    let own = false;
    if (dirOfPath(file) !== assetsDir) {
      name = await freeName(root, assetsDir, name);
      const copied = await fsp.readFile(resolveInRoot(root, file));
      await writeFileAtomic(root, `${assetsDir}/${name}`, copied, { ownWrites: ctx.ownWrites });
      const relinked = withDestination(markdown, assetLinkOf(doc.path, name));
      const at = text.indexOf(markdown);
      if (at < 0) {
        left = true;
        continue;
      }
      const next = `${text.slice(0, at)}${relinked}${text.slice(at + markdown.length)}`;
      const w = await writeFileIfUnchanged(root, doc.path, next, fileHash, { ownWrites: ctx.ownWrites });
      if (!w.written) return true; // edited meanwhile: the next cycle looks again
      // The record follows the rewrite only where it held the file's hash (not UNSENT: an alt text left to send).
      const held = journal.getDocument(docId);
      if (held && held.fileHash === fileHash) journal.upsertDocument({ ...held, fileHash: w.hash });
      text = next;
      fileHash = w.hash;
      markdown = relinked;
      own = true;
    }
    const assetFile = `${assetsDir}/${name}`;
    const target = prev !== null ? { position: 'after' as const, siblingId: prev } : { position: 'start' as const, pageId: parentId };
    if (assetFile.endsWith(SCENE_EXT)) {
      // A whiteboard's scene: the board is drawn again in the space (its record makes the scene file its own).
      const made = await drawScene(ctx, { docId, file: assetFile, markdown, parentId: c.parentId, after: prev, target });
      if (!made.ok) {
        fail(assetFile, made.message, true);
        continue;
      }
      given.set(c.node, made.blockId);
      base = journal.getBaseBlocks(docId);
      result.uploaded.push(assetFile);
      continue;
    }
    const { bytes, hash } = await hashOf(resolveInRoot(root, assetFile));
    const contentType = contentTypeOf(name);
    const type = uploadedTypeOf(contentType);
    const payload: UploadPayload = {
      path: doc.path,
      file: assetFile,
      target,
      sha256: hash,
      size: bytes.length,
      type,
      markdown,
      name,
      own,
      parentId: c.parentId,
      after: prev,
    };
    const intent = journal.addIntent({ docId, op: UPLOAD_OP, payload });
    let answer: { blockId: string; assetUrl: string };
    try {
      answer = await ctx.client.upload(bytes, contentType, { ...target, ...(type === 'file' ? { fileName: ref.text || name } : {}) }, { priority: 'user' });
    } catch (e) {
      if (!isPerDocumentError(e)) throw e;
      if (mayHaveLanded(e)) {
        // Kept: the next push reads the document and adopts the block if it landed, else sends it again.
        fail(
          assetFile,
          `"${assetFile}" (linked from ${doc.path}) may have been uploaded (${(e as Error).message}); the next cycle looks for it in the document before sending it again.`,
          true,
        );
        return true;
      }
      journal.clearIntent(intent);
      fail(assetFile, `"${assetFile}" (linked from ${doc.path}) was not uploaded (${(e as Error).message}); the next cycle tries again.`, true);
      continue;
    }
    given.set(c.node, answer.blockId);
    // The upload made the block with the service's alt text: the line's goes after it.
    const alt = await sendAltText(ctx, { id: answer.blockId, type, markdown, file: assetFile, assetUrl: answer.assetUrl });
    base = insertBase(
      base,
      { id: answer.blockId, parentId: c.parentId, kind: 'block', type, markdown: alt.recorded, hash: hashBlock(alt.recorded, 'block') },
      prev,
    );
    const rec: MediaRecord = {
      docId,
      name,
      file: assetFile,
      hash,
      url: unsignedUrl(answer.assetUrl),
      signedUrl: answer.assetUrl,
      ...(own ? {} : { uploaded: true }),
      ...(await assetStat(root, assetFile)),
    };
    const b = base;
    journal.transaction(() => {
      journal.replaceBaseBlocks(docId, b);
      journal.setState(`${MEDIA_BASE}${answer.blockId}`, rec);
      journal.clearIntent(intent);
      if (!alt.sent) markAltTextUnsent(ctx, docId);
    });
    result.uploaded.push(assetFile);
    ctx.logger.info({ file: assetFile, blockId: answer.blockId, doc: doc.path }, `uploaded ${assetFile} as a ${type} block of ${doc.path}`);
  }
  return left;
}
