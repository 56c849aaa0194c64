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
import { coreDialect } from '../../core/merge/mergeFile.js';
import { diffDocument, type DiffNode } from '../../core/merge/diff.js';
import { dirOfPath } from '../../core/files/fileName.js';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { insertBase } from '../../core/merge/baseAfter.js';
import { assetFileOf, assetLinkOf, SCENE_EXT, unsignedUrl, withDestination } from '../../core/media/linkAssets.js';
import { contentTypeOf, localReferenceOf, resolveReference, uploadedTypeOf } from '../../core/media/localReference.js';
import { segmentFile } from '../../dialect/index.js';
import { isPerDocumentError } from '../context/index.js';
import { readMirrorFile, resolveInRoot, writeFileAtomic, writeFileIfUnchanged } from '../../mirror/index.js';
import { MEDIA_BASE, type DrawScene, type MediaRecord, type SyncContext } from '../context/index.js';
import type { Journal } from '../../journal/index.js';
import type { BaseBlock } from '../../core/types.js';
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

/** What the uploads of one document's references share: the file as last written, its base, the ids given. */
interface DocUploads {
  ctx: SyncContext;
  docId: string;
  path: string;
  result: UploadResult;
  text: string;
  fileHash: string;
  base: BaseBlock[];
  rootReal: string;
  assetsDir: string;
  /** Ids the uploads of this run gave to nodes of the file. */
  given: Map<DiffNode, string>;
  /** Some references are left to try again next cycle. */
  left: boolean;
}

/** A reference not uploaded: said in the result and the log; `retry` leaves it for the next cycle. */
function fail(s: DocUploads, file: string, message: string, retry: boolean): void {
  s.result.failed.push({ path: s.path, file, message });
  s.ctx.logger.warn({ ...FILE_ONLY, file: s.path, asset: file }, message); // the cycle's report says it
  if (retry) s.left = true;
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
  const base = journal.getBaseBlocks(docId);
  const diff = diffDocument(base, segmentFile(read.text).segments, { equals: coreDialect.equals });
  const candidates = candidatesOf(diff.nodes, null);
  if (candidates.length === 0) return false;
  const rootReal = await fsp.realpath(root);
  const assetsDir = assetFileOf(doc.path, '').slice(0, -1);
  const s: DocUploads = { ctx, docId, path: doc.path, result, text: read.text, fileHash: read.hash, base, rootReal, assetsDir, given: new Map(), left: false };
  for (const c of candidates) {
    if (ctx.signal?.aborted) return true;
    const ref = localReferenceOf(c.node.local.markdown)!;
    const file = await uploadableFile(s, ref.dest);
    if (file === null) continue;
    const parentId = c.parentId ?? docId;
    // After the nearest block before it that the space has (lines held back are skipped), else first in its parent.
    let prev: string | null = null;
    for (const b of c.before) {
      prev = b.id ?? s.given.get(b) ?? null;
      if (prev !== null) break;
    }
    const placed = await placeInAssets(s, file, c.node.local.markdown);
    if (placed === 'stop') return true;
    if (placed === 'skip') continue;
    const { name, markdown, own } = placed;
    const assetFile = `${assetsDir}/${name}`;
    const target = prev !== null ? { position: 'after' as const, siblingId: prev } : { position: 'start' as const, pageId: parentId };
    if (assetFile.endsWith(SCENE_EXT)) {
      // A whiteboard's scene: the board is drawn again in the space (its record makes the scene file its own).
      const made = await drawScene(ctx, { docId, file: assetFile, markdown, parentId: c.parentId, after: prev, target });
      if (!made.ok) {
        fail(s, assetFile, made.message, true);
        continue;
      }
      s.given.set(c.node, made.blockId);
      s.base = journal.getBaseBlocks(docId);
      result.uploaded.push(assetFile);
      continue;
    }
    const upload = { file: assetFile, name, markdown, own, target, parentId: c.parentId, after: prev, linkText: ref.text };
    if ((await uploadFile(s, c.node, upload)) === 'stop') return true;
  }
  return s.left;
}

/** The referenced file when it may be uploaded; else null, with the reason said unless it is gone since the push. */
async function uploadableFile(s: DocUploads, dest: string): Promise<string | null> {
  const { root } = s.ctx;
  const maxMiB = s.ctx.settings.assets.maxMiB;
  const file = resolveReference(s.path, dest);
  if (file === null) {
    fail(
      s,
      dest,
      `"${dest}" in ${s.path} points outside the mirror, so it is not uploaded; the line stays in the file, unsent. Move the file into "${s.assetsDir}/" and link it from there.`,
      false,
    );
    return null;
  }
  const st = await fsp.lstat(resolveInRoot(root, file)).catch(() => null);
  if (st === null) return null; // gone since the push: the next push sends the line as text
  if (st.isSymbolicLink()) {
    fail(
      s,
      file,
      `"${file}" (linked from ${s.path}) is a symbolic link, which spacesync does not follow, so it is not uploaded; the line stays in the file, unsent. Put the file itself there to upload it.`,
      false,
    );
    return null;
  }
  const real = await fsp.realpath(resolveInRoot(root, file)).catch(() => null);
  if (!st.isFile() || real === null || !real.startsWith(`${s.rootReal}${path.sep}`)) {
    fail(s, file, `"${file}" (linked from ${s.path}) is not a file inside the mirror, so it is not uploaded; the line stays in the file, unsent.`, false);
    return null;
  }
  if (st.size > maxMiB * 1024 * 1024) {
    fail(
      s,
      file,
      `"${file}" (linked from ${s.path}) is ${(st.size / 1024 / 1024).toFixed(1)} MiB, more than assets.maxMiB (${maxMiB} MiB), so it is not uploaded; the line stays in the file, unsent. Raise assets.maxMiB in .spacesync/config.json to upload it.`,
      true,
    );
    return null;
  }
  return file;
}

/**
 * The asset lives in the document's .assets folder, where the pull links it: a file elsewhere is copied
 * there and the line pointed at the copy. 'skip' when the line is not found, 'stop' when the file was
 * edited meanwhile (the next cycle looks again).
 */
async function placeInAssets(s: DocUploads, file: string, markdown: string): Promise<{ name: string; markdown: string; own: boolean } | 'skip' | 'stop'> {
  const { root, journal } = s.ctx;
  const name = path.posix.basename(file);
  if (dirOfPath(file) === s.assetsDir) return { name, markdown, own: false };
  const free = await freeName(root, s.assetsDir, name);
  const copied = await fsp.readFile(resolveInRoot(root, file));
  await writeFileAtomic(root, `${s.assetsDir}/${free}`, copied, { ownWrites: s.ctx.ownWrites });
  const relinked = withDestination(markdown, assetLinkOf(s.path, free));
  const at = s.text.indexOf(markdown);
  if (at < 0) {
    s.left = true;
    return 'skip';
  }
  const next = `${s.text.slice(0, at)}${relinked}${s.text.slice(at + markdown.length)}`;
  const w = await writeFileIfUnchanged(root, s.path, next, s.fileHash, { ownWrites: s.ctx.ownWrites });
  if (!w.written) return 'stop';
  // The record follows the rewrite only where it held the file's hash (not UNSENT: an alt text left to send).
  const held = journal.getDocument(s.docId);
  if (held && held.fileHash === s.fileHash) journal.upsertDocument({ ...held, fileHash: w.hash });
  s.text = next;
  s.fileHash = w.hash;
  return { name: free, markdown: relinked, own: true };
}

/** One asset to upload: its file and name, its line, whether the sync made the copy, where its block goes, the link's text (a file block's name). */
type Upload = Required<Pick<UploadPayload, 'file' | 'name' | 'markdown' | 'own' | 'target' | 'parentId' | 'after'>> & { linkText: string };

/**
 * Uploads one asset as a block of the document, under an intent, then records the block in the base
 * and the asset like a downloaded one; 'stop' when the upload may have landed (the next cycle looks).
 */
async function uploadFile(s: DocUploads, node: DiffNode, upload: Upload): Promise<'stop' | undefined> {
  const { ctx, docId } = s;
  const { journal, root } = ctx;
  const { file: assetFile, name, markdown, own, target, parentId, after } = upload;
  const { bytes, hash } = await hashOf(resolveInRoot(root, assetFile));
  const contentType = contentTypeOf(name);
  const type = uploadedTypeOf(contentType);
  const payload: UploadPayload = { path: s.path, file: assetFile, target, sha256: hash, size: bytes.length, type, markdown, name, own, parentId, after };
  const intent = journal.addIntent({ docId, op: UPLOAD_OP, payload });
  let answer: { blockId: string; assetUrl: string };
  try {
    answer = await ctx.client.upload(
      bytes,
      contentType,
      { ...target, ...(type === 'file' ? { fileName: upload.linkText || name } : {}) },
      { priority: 'user' },
    );
  } catch (e) {
    if (!isPerDocumentError(e)) throw e;
    if (mayHaveLanded(e)) {
      // Kept: the next push reads the document and adopts the block if it landed, else sends it again.
      fail(
        s,
        assetFile,
        `"${assetFile}" (linked from ${s.path}) may have been uploaded (${(e as Error).message}); the next cycle looks for it in the document before sending it again.`,
        true,
      );
      return 'stop';
    }
    journal.clearIntent(intent);
    fail(s, assetFile, `"${assetFile}" (linked from ${s.path}) was not uploaded (${(e as Error).message}); the next cycle tries again.`, true);
    return undefined;
  }
  s.given.set(node, answer.blockId);
  // The upload made the block with the service's alt text: the line's goes after it.
  const alt = await sendAltText(ctx, { id: answer.blockId, type, markdown, file: assetFile, assetUrl: answer.assetUrl });
  const base = insertBase(s.base, { id: answer.blockId, parentId, kind: 'block', type, markdown: alt.recorded, hash: hashBlock(alt.recorded, 'block') }, after);
  s.base = base;
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
  journal.transaction(() => {
    journal.replaceBaseBlocks(docId, base);
    journal.setState(`${MEDIA_BASE}${answer.blockId}`, rec);
    journal.clearIntent(intent);
    if (!alt.sent) markAltTextUnsent(ctx, docId);
  });
  s.result.uploaded.push(assetFile);
  ctx.logger.info({ file: assetFile, blockId: answer.blockId, doc: s.path }, `uploaded ${assetFile} as a ${type} block of ${s.path}`);
  return undefined;
}
