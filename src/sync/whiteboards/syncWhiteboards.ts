// Each whiteboard block of the mirror has a scene file, `<Doc>.assets/<name>.excalidraw`, that its
// document's body links to. Once a cycle has pushed and pulled the documents, this brings every
// scene file and its whiteboard together: the elements the file changed go to the service (only the
// changed properties, new ones, removed ones), the service's changes come into the file, and an
// element changed on both sides goes to the later edit, the other version kept in the version
// history. The service is asked only when the document changed there since the last look; the file
// only when its hash moved. A scene that cannot be read is held back: nothing sent, nothing written.
import { promises as fsp } from 'node:fs';
import { mergeWhiteboard, sameElement, type WhiteboardMerge } from '../../core/whiteboards/mergeWhiteboard.js';
import { readScene } from '../../core/whiteboards/readScene.js';
import { sceneOfWhiteboard, type WhiteboardContent, type WhiteboardElement } from '../../core/whiteboards/sceneOfWhiteboard.js';
import { sceneFileOf } from '../../core/media/linkAssets.js';
import { isSpacesyncError } from '../../errors.js';
import { dirOfPath, isAssetsDir } from '../../core/files/fileName.js';
import {
  moveFileAtomic,
  readMirrorFile,
  removeEmptyDirs,
  resolveForWrite,
  resolveInRoot,
  writeFileIfUnchanged,
  type MirrorFileContent,
} from '../../mirror/index.js';
import { pathExists, saveLocalVersion, type SyncContext } from '../context/index.js';
import { FILE_ONLY } from '../../log.js';

/** State key prefix: what the file and the service last agreed on, per whiteboard block. */
export const WHITEBOARD_BASE = 'whiteboard:';

/** The journal's record of one whiteboard: the scene's base, per element, for three-way merging. */
export interface WhiteboardRecord {
  docId: string;
  /** The scene file, relative to the root. */
  file: string;
  /** Hash of the file as last written or read. */
  fileHash: string;
  /** The document's `lastModifiedAt` when the service's elements were last read. */
  remoteAt: string | null;
  elements: WhiteboardElement[];
  appState?: Record<string, unknown>;
  assets?: Record<string, unknown>;
}

export interface WhiteboardSyncResult {
  /** Scene files written (new, or with the service's changes). */
  written: string[];
  /** Scene files whose edits here were sent (elements added, changed or removed on the board). */
  sent: Array<{ file: string; elements: number }>;
  /** Scene files written with changes the space made to their board. */
  pulled: string[];
  /** Element requests sent. */
  requests: number;
  /** Elements changed on both sides: the side whose version went to the history. */
  conflicts: Array<{ file: string; id: string; lost: 'local' | 'remote' }>;
  /** Scene files whose changes were not sent, and why (the message names the file and what to do). */
  heldBack: Array<{ file: string; message: string }>;
  /** Scene files removed with their whiteboard block. */
  removed: string[];
  failed: Array<{ file: string; message: string }>;
}

const MAX_PER_REQUEST = 500;

const chunks = <T>(list: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += MAX_PER_REQUEST) out.push(list.slice(i, i + MAX_PER_REQUEST));
  return out;
};

const sameList = (a: readonly WhiteboardElement[], b: readonly WhiteboardElement[]) =>
  a.length === b.length && a.every((e, i) => e.id === b[i]!.id && sameElement(e, b[i]!));

export async function syncWhiteboards(ctx: SyncContext): Promise<WhiteboardSyncResult> {
  const result: WhiteboardSyncResult = { written: [], sent: [], pulled: [], requests: 0, conflicts: [], heldBack: [], removed: [], failed: [] };
  if (ctx.readOnly) return result;
  const records = new Map(Object.entries(ctx.journal.statesWithPrefix<WhiteboardRecord>(WHITEBOARD_BASE)));
  const live = new Set<string>();
  for (const [docId, boards] of ctx.journal.documentsWithWhiteboards()) {
    const doc = ctx.journal.getDocument(docId);
    if (!doc || doc.fileHash === null) continue;
    // Its file is not where the journal has it (moved or its folder renamed here, not yet pushed):
    // no scene file is written or moved beside it, or the old folder would come back and read as
    // never renamed (its other documents then taken for deleted).
    if (!(await pathExists(ctx.root, doc.path))) {
      for (const id of boards) live.add(id);
      continue;
    }
    const base = new Map(ctx.journal.getBaseBlocks(docId).map((b) => [b.id, b]));
    for (const id of boards) {
      live.add(id);
      const file = sceneFileOf(base.get(id)?.markdown ?? '', doc.path);
      if (file === null) continue; // recorded before scene files: linked on the document's next change
      if (ctx.signal?.aborted) return result;
      try {
        await syncOne(ctx, result, { id, docId, file, remoteAt: doc.remoteModifiedAt ?? null }, records.get(id));
      } catch (e) {
        const message = isSpacesyncError(e) ? e.message : String(e);
        result.failed.push({ file, message });
        ctx.logger.warn({ ...FILE_ONLY, file, code: isSpacesyncError(e) ? e.code : 'error' }, `The whiteboard file "${file}" was not synced: ${message}`);
      }
    }
  }
  // Whiteboards whose block left the document: their scene file goes too, when it is the one the sync wrote.
  for (const [id, rec] of records) {
    if (live.has(id)) continue;
    if (ctx.signal?.aborted) return result;
    const now = await readMirrorFile(ctx.root, rec.file);
    if (now !== null && now.hash === rec.fileHash) {
      await saveLocalVersion(ctx, { path: rec.file, docId: rec.docId, text: now.text ?? '', replacement: null, cause: 'delete' });
      await fsp.rm(resolveForWrite(ctx.root, rec.file), { force: true });
      await removeEmptyDirs(ctx.root, dirOfPath(rec.file), isAssetsDir);
      result.removed.push(rec.file);
    }
    ctx.journal.deleteState(`${WHITEBOARD_BASE}${id}`);
  }
  return result;
}

interface Board {
  id: string;
  docId: string;
  file: string;
  /** The document's `lastModifiedAt` as the journal holds it now. */
  remoteAt: string | null;
}

/** The scene's content: its elements, with the board's appState and assets when it has them. */
const contentOf = (elements: WhiteboardElement[], c: { appState?: Record<string, unknown>; assets?: Record<string, unknown> }): WhiteboardContent => ({
  elements,
  ...(c.appState ? { appState: c.appState } : {}),
  ...(c.assets ? { assets: c.assets } : {}),
});

/**
 * `readRemote`: read the board even though its document's listing time did not move (that time is
 * taken only when the document is pulled, so a document held back or being edited keeps the old one).
 */
async function syncOne(ctx: SyncContext, result: WhiteboardSyncResult, board: Board, rec: WhiteboardRecord | undefined, readRemote = false): Promise<void> {
  const { root } = ctx;
  const { id, file } = board;
  // The document's file moved (renamed, or to another folder): its scene file moves with it.
  if (rec && rec.file !== file) {
    const moved = await moveFileAtomic(root, rec.file, file).catch(() => null);
    if (moved?.ok) await removeEmptyDirs(root, dirOfPath(rec.file), isAssetsDir).catch(() => []);
  }
  const local = await readMirrorFile(root, file);
  const localChanged = local !== null && local.hash !== rec?.fileHash;
  const remoteChanged = readRemote || !rec || rec.remoteAt !== board.remoteAt;
  if (!localChanged && !remoteChanged && local !== null) return;
  // Backup mode: a scene edited here is kept and never sent; the space's changes are written over it.
  const backup = ctx.settings.mode === 'backup';
  if (backup && !remoteChanged && local !== null) return;

  let remote: WhiteboardContent;
  if (remoteChanged) {
    result.requests++;
    const r = await ctx.client.getWhiteboardElements(id, { priority: 'poll' });
    remote = contentOf(r.elements as WhiteboardElement[], r);
  } else {
    remote = contentOf(rec.elements, rec);
  }
  const baseElements = rec?.elements ?? null;
  const localElements = localElementsOf(ctx, result, file, local, baseElements ?? remote.elements);
  if (localElements === null) return;
  const localTime = local === null ? 0 : ((await fsp.stat(resolveInRoot(root, file)).catch(() => null))?.mtimeMs ?? 0);
  const remoteTime = board.remoteAt ? Date.parse(board.remoteAt) : 0;
  const m: WhiteboardMerge = backup
    ? { elements: remote.elements, put: [], post: [], remove: [], conflicts: [] }
    : mergeWhiteboard(baseElements, localElements, remote.elements, localTime > remoteTime);
  if (backup && localChanged && local?.text)
    await saveLocalVersion(ctx, { path: file, docId: board.docId, text: local.text, replacement: null, cause: 'backup' });

  // The versions that lose go to the history before anything changes.
  if (m.conflicts.some((c) => c.lost === 'local') && local?.text)
    await saveLocalVersion(ctx, { path: file, docId: board.docId, text: local.text, replacement: null, cause: 'conflict' });
  if (m.conflicts.some((c) => c.lost === 'remote'))
    await saveLocalVersion(ctx, { path: file, docId: board.docId, text: sceneOfWhiteboard(remote), replacement: null, cause: 'conflict' });
  for (const c of m.conflicts) result.conflicts.push({ file, id: c.id, lost: c.lost });

  const sent = await sendMerge(ctx, result, id, m, remoteChanged);
  // An element the space deleted since the record, which this merge did not read: read the board
  // and merge again (an edit beats a delete: the element is made anew), once.
  if (sent === 'read again') return syncOne(ctx, result, board, rec, true);
  await recordScene(ctx, result, board, rec, { local, localElements, baseElements, remote, m, sent });
}

/**
 * The file's elements; with no file (new, or removed by hand) the base's (`known`: else the
 * space's), so nothing is sent. Null when the scene cannot be read: held back, and said.
 */
function localElementsOf(
  ctx: SyncContext,
  result: WhiteboardSyncResult,
  file: string,
  local: MirrorFileContent | null,
  known: WhiteboardElement[],
): WhiteboardElement[] | null {
  if (local === null) return known;
  const read =
    local.text === null
      ? ({ ok: false, problem: 'it is not UTF-8 text' } as const)
      : // The elements last agreed on tell a default the scene filled in from a value the service
        // has; with no record of them (lost with a journal), the service's own elements do.
        readScene(local.text, new Map(known.map((e) => [e.id, e])));
  if (!read.ok) {
    const message = `The whiteboard file "${file}" was not synced: ${read.problem}. Nothing was sent and the file was left as it is; fix it (or delete it to get the space's version back), and the next cycle sends it.`;
    result.heldBack.push({ file, message });
    ctx.logger.warn({ ...FILE_ONLY, file }, message); // the cycle's report says it
    return null;
  }
  return read.elements;
}

/**
 * Sends the merge's element requests (removed, changed, then new ones); true when some were sent.
 * 'read again' when an element to remove or change was not found and the board was not read.
 */
async function sendMerge(
  ctx: SyncContext,
  result: WhiteboardSyncResult,
  id: string,
  m: WhiteboardMerge,
  remoteChanged: boolean,
): Promise<boolean | 'read again'> {
  let sent = false;
  try {
    for (const ids of chunks(m.remove)) {
      result.requests++;
      await ctx.client.deleteWhiteboardElements(id, { elementIds: ids }, { priority: 'user' });
      sent = true;
    }
    for (const els of chunks(m.put)) {
      result.requests++;
      await ctx.client.updateWhiteboardElements(id, { elements: els }, { priority: 'user' });
      sent = true;
    }
  } catch (e) {
    if (!remoteChanged && isSpacesyncError(e, 'not_found')) return 'read again';
    throw e;
  }
  for (const els of chunks(m.post)) {
    result.requests++;
    await ctx.client.addWhiteboardElements(id, { elements: els }, { priority: 'user' });
    sent = true;
  }
  return sent;
}

/** What syncOne read and merged, for the record. */
interface Merged {
  local: MirrorFileContent | null;
  localElements: WhiteboardElement[];
  baseElements: WhiteboardElement[] | null;
  remote: WhiteboardContent;
  m: WhiteboardMerge;
  sent: boolean;
}

/** Writes the merged scene into the file (unless it says it already) and records it as the board's new base. */
async function recordScene(
  ctx: SyncContext,
  result: WhiteboardSyncResult,
  board: Board,
  rec: WhiteboardRecord | undefined,
  { local, localElements, baseElements, remote, m, sent }: Merged,
): Promise<void> {
  const { root } = ctx;
  const { id, file } = board;
  if (sent) result.sent.push({ file, elements: m.remove.length + m.put.length + m.post.length });
  const merged: WhiteboardContent = { ...remote, elements: m.elements };
  let fileHash: string;
  if (local !== null && sameList(localElements, m.elements)) {
    fileHash = local.hash; // the file already says it (in an editor's own layout perhaps): left as it is
  } else {
    const w = await writeFileIfUnchanged(root, file, sceneOfWhiteboard(merged), local?.hash ?? null, { ownWrites: ctx.ownWrites });
    if (!w.written) {
      // Saved again meanwhile: what was sent is the base; the new save is merged on the next cycle.
      if (!sent && rec) return;
      fileHash = local?.hash ?? '';
    } else {
      fileHash = w.hash;
      result.written.push(file);
      if (baseElements === null || !sameList(baseElements, remote.elements)) result.pulled.push(file);
    }
  }
  const next: WhiteboardRecord = {
    docId: board.docId,
    file,
    fileHash,
    // What this cycle sent moves the document's lastModifiedAt: the next look reads the elements again.
    remoteAt: board.remoteAt,
    ...contentOf(m.elements, remote),
  };
  ctx.journal.setState(`${WHITEBOARD_BASE}${id}`, next);
}
