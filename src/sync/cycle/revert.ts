// `spacesync revert [FILE…]` (backup mode): the folder back to the space's state as the journal knows
// it, sending nothing. An edited file is written again from its base, a deleted one written back, a
// moved one moved back, and a file that exists only here goes into the version history (`history`
// lists it, `restore` brings it back) and leaves the folder. The task files are written again from
// the tasks last synced. Each file written is recorded as the synced one, so nothing of it looks
// changed afterwards; it works beside a running daemon, which in backup mode sends nothing either.
import { cardLayoutOf } from '../../core/merge/cardLayout.js';
import { withFrontMatter } from '../../core/files/fileText.js';
import { needsTitle } from '../../core/pull/layout.js';
import { INBOX_FILE, LOGBOOK_FILE, renderTaskList } from '../../core/tasks/taskFiles.js';
import { SpacesyncError } from '../../errors.js';
import type { CardLayout } from '../../dialect/index.js';
import { moveFileAtomic, readMirrorFile, resolveForWrite, writeFileIfUnchanged } from '../../mirror/index.js';
import { promises as fsp } from 'node:fs';
import { saveLocalVersion, type SyncContext } from '../context/index.js';

/** What a revert needs of a context: it runs beside a daemon, without a session of its own. */
export type RevertContext = Pick<SyncContext, 'root' | 'journal' | 'now' | 'ownWrites' | 'settings'>;
import { readTaskFilesState, writeTaskFilesState } from '../tasks/index.js';
import { renderVersion } from '../versions/index.js';
import { findLocalChanges } from './pendingChanges.js';

export interface RevertItem {
  path: string;
  /** `rewrite`: written again from the space's version; `restore`: a deleted file written back; `move`: moved back from `from`; `remove`: only here, into the history. */
  what: 'rewrite' | 'restore' | 'move' | 'remove';
  from?: string;
}

/** What a revert would do to the files named (every change here when none is named). */
export async function planRevert(ctx: RevertContext, ignore: readonly string[], only?: readonly string[]): Promise<RevertItem[]> {
  const local = await findLocalChanges(ctx.root, ctx.journal, ignore);
  const named = only && only.length > 0 ? new Set(only) : null;
  const items: RevertItem[] = [];
  for (const c of local.changes) {
    if (named && !named.has(c.path) && !(c.from && named.has(c.from))) continue;
    if (c.change === 'edited') items.push({ path: c.path, what: 'rewrite' });
    else if (c.change === 'missing') items.push({ path: c.path, what: 'restore' });
    else if (c.change === 'moved') items.push({ path: c.from!, what: 'move', from: c.path });
    else items.push({ path: c.path, what: 'remove' });
  }
  if (named) for (const p of named) if (!items.some((i) => i.path === p || i.from === p)) throw notChanged(p);
  return items;
}

const notChanged = (p: string) =>
  new SpacesyncError(
    'usage',
    `"${p}" holds no change made here (or is no file of the mirror): there is nothing to revert. \`spacesync status\` lists the changes made here.`,
  );

/** The file of a document as the journal knows it: its base rendered, with its front matter. */
function fileOf(ctx: RevertContext, docId: string, path: string): string {
  const r = ctx.journal.getDocument(docId)!;
  const base = ctx.journal.getBaseBlocks(docId).map((b) => ({ ...b, cardLayout: cardLayoutOf(b).layout as CardLayout | undefined }));
  const body = renderVersion(base.map(({ hash: _h, ...b }) => ({ ...b, ...(b.cardLayout ? { cardLayout: b.cardLayout } : {}) })) as never);
  const fm = withFrontMatter(body, { id: docId, title: needsTitle(r.title, path) ? r.title : undefined }, path);
  return fm.ok ? fm.text : body;
}

/** Writes `text` at `path` over what was read there, and records it as the document's synced file. */
async function writeBack(ctx: RevertContext, path: string, text: string, docId: string | null): Promise<void> {
  const now = await readMirrorFile(ctx.root, path);
  if (now !== null && now.text !== null) await saveLocalVersion(ctx, { path, docId, text: now.text, replacement: text, cause: 'revert' });
  const w = await writeFileIfUnchanged(ctx.root, path, text, now?.hash ?? null, { ownWrites: ctx.ownWrites });
  if (!w.written) throw new SpacesyncError('mirror_io', `"${path}" changed while it was reverted: it was left as it is. Run \`spacesync revert\` again.`);
  if (docId) ctx.journal.setFileHash(docId, w.hash);
}

export async function applyRevert(ctx: RevertContext, items: readonly RevertItem[]): Promise<RevertItem[]> {
  const done: RevertItem[] = [];
  for (const item of items) {
    const doc = ctx.journal.getDocumentByPath(item.path);
    if (item.path === INBOX_FILE || item.path === LOGBOOK_FILE) {
      const state = readTaskFilesState(ctx.journal);
      if (!state) continue;
      const text = renderTaskList(item.path === INBOX_FILE ? state.inbox : state.logbook);
      await writeBack(ctx, item.path, text, null);
      const hash = (await readMirrorFile(ctx.root, item.path))!.hash;
      writeTaskFilesState(ctx.journal, item.path === INBOX_FILE ? { ...state, inboxHash: hash } : { ...state, logbookHash: hash });
    } else if (item.what === 'remove') {
      const now = await readMirrorFile(ctx.root, item.path);
      if (now === null) continue;
      await saveLocalVersion(ctx, { path: item.path, docId: null, text: now.text ?? '', replacement: null, cause: 'revert' });
      await fsp.rm(resolveForWrite(ctx.root, item.path));
    } else if (doc) {
      if (item.what === 'move' && item.from) {
        const moved = await moveFileAtomic(ctx.root, item.from, item.path, { ownWrites: ctx.ownWrites });
        if (!moved.ok) throw new SpacesyncError('mirror_io', `${moved.message} Move it aside and run \`spacesync revert\` again.`);
      }
      const text = fileOf(ctx, doc.id, item.path);
      if ((await readMirrorFile(ctx.root, item.path))?.text !== text) await writeBack(ctx, item.path, text, doc.id);
      else ctx.journal.setFileHash(doc.id, (await readMirrorFile(ctx.root, item.path))!.hash);
    } else continue;
    done.push(item);
  }
  return done;
}
