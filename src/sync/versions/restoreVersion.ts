// `spacesync restore`: writes one version of the history back into its file, as the user would:
// the next cycle sends it as an ordinary edit (restored blocks get new ids, nothing else is
// touched), with the fields their lines do not show (a colour, a rich URL's own) noted for that
// push, and a whiteboard's scene removed with its block written back beside the document. A
// document in the trash has its file moved back out first, so the cycle restores it. The file's
// current bytes become a version themselves, so a restore can be undone. Here too: what a remote
// version stands for (its blocks over the base) and its text as a file body (history and console).
import { promises as fsp } from 'node:fs';
import { SpacesyncError } from '../../errors.js';
import type { DocumentRecord, HistoryBlock, HistoryRecord, Journal, BaseBlock } from '../../journal/index.js';
import { restoredBlocksOf } from '../../core/versions/withRestoredFields.js';
import { isDocumentFile, moveFileAtomic, readMirrorFile, resolveInRoot, writeFileAtomic } from '../../mirror/index.js';
import { bodyOf, frontMatterParts, withFrontMatter } from '../../core/files/fileText.js';
import { localReferenceOf, resolveReference } from '../../core/media/localReference.js';
import { segmentFile, type Segment, renderFileBody, type Block, type BlockType } from '../../dialect/index.js';
import { noteRestoredBlocks, saveLocalVersion, type SyncSettings, unpackVersion } from '../context/index.js';
import { cardLayoutOf } from '../../core/merge/cardLayout.js';

export interface RestoreInput {
  root: string;
  journal: Journal;
  settings: Pick<SyncSettings, 'versions'>;
  now: () => Date;
  /** The file (relative to the root). */
  path: string;
  /** A history entry's number; the newest at or before `at` otherwise; the newest when neither. */
  version?: number;
  at?: Date;
  dryRun?: boolean;
}

export interface RestorePlan {
  version: HistoryRecord;
  /** Where the text goes: the file asked for, or, for a trashed document asked by its Trash/ path, where it was before. */
  path: string;
  /** The text written (or that would be). */
  text: string;
  /** The file was in Trash/ (its document trashed): moved back to `path` first. */
  fromTrash: string | null;
  /** Files the restored lines link that were gone, written back from their own versions (a whiteboard's scene). */
  files: string[];
  written: boolean;
}

/** A version that only notes that the document went to the trash: restoring it takes it out again. */
export const isTrashNote = (v: HistoryRecord): boolean => v.cause === 'trash';

/**
 * The versions of a file: those taken at its path, and those of the document it holds (or held
 * there; a trashed document is found by the path it had), newest first. Another file of the document
 * (a whiteboard's scene) has versions of its own, asked for by its own path.
 */
export function versionsOf(journal: Journal, relPath: string): HistoryRecord[] {
  const docId = journal.getDocumentByPath(relPath)?.id ?? journal.listHistory({ path: relPath }).find((h) => h.docId !== null)?.docId ?? undefined;
  return journal.listHistory({ path: relPath, ...(docId ? { docId } : {}) }).filter((v) => v.path === relPath || isDocumentFile(v.path));
}

export async function restoreVersion(input: RestoreInput): Promise<RestorePlan> {
  const { root, journal, path: rel } = input;
  const versions = versionsOf(journal, rel);
  if (versions.length === 0)
    throw new SpacesyncError(
      'usage',
      `"${rel}" has no versions in the history (nothing the sync replaced or deleted of it is kept). Check the path: it is relative to the mirror folder.`,
    );
  const { version, target, trashed } = chooseVersion(input, versions);

  // The document's file now: where the record says, which is in Trash/ when the document was trashed.
  const fromTrash = trashed && trashed.path !== target && (await readMirrorFile(root, trashed.path)) !== null ? trashed.path : null;
  const current = await readMirrorFile(root, fromTrash ?? target);
  const currentText = current?.text ?? undefined;
  if (current && current.text === null)
    throw new SpacesyncError(
      'usage',
      `"${fromTrash ?? target}" is not UTF-8 text, so it was not touched. Save it as UTF-8 (or move it away), then restore again.`,
    );

  const { text, blocks } = await textOf(input, version, target, fromTrash, currentText, trashed);
  // A restored line that links a file of the document the sync removed with its block (a whiteboard's scene) gets that file back too.
  const beside = isTrashNote(version) ? [] : await missingFilesOf(root, journal, target, text);
  const plan: RestorePlan = { version, path: target, text, fromTrash, files: beside.map((b) => b.path), written: false };
  if (input.dryRun) return plan;

  if (fromTrash) {
    const moved = await moveFileAtomic(root, fromTrash, target);
    if (!moved.ok) throw new SpacesyncError('mirror_io', `${moved.message} Move "${target}" away, then restore again.`);
  }
  if (currentText !== undefined && currentText !== text) {
    await saveLocalVersion(
      { root, journal, now: input.now, settings: input.settings },
      { path: target, docId: version.docId, text: currentText, replacement: text, cause: 'restore' },
    );
  }
  if (currentText !== text) await writeFileAtomic(root, target, text);
  for (const b of beside) await writeFileAtomic(root, b.path, b.text);
  // What the lines of the restored blocks do not show goes with them when the push makes them again.
  if (version.docId !== null && !isTrashNote(version)) noteRestoredBlocks(journal, version.docId, restoredBlocksOf(blocks));
  plan.written = true;
  return plan;
}

/** Where the user finds a file's versions. */
const historyHint = (rel: string) => `\`spacesync history "${rel}"\` lists them`;

/** The version to restore (by number, by time, else the newest), and where its text goes. */
function chooseVersion(input: RestoreInput, versions: HistoryRecord[]): { version: HistoryRecord; target: string; trashed: DocumentRecord | undefined } {
  const { journal, path: rel } = input;
  const hint = historyHint(rel);
  // The document the file holds or held, and whether it is in the trash now.
  const docId = journal.getDocumentByPath(rel)?.id ?? versions.find((v) => v.docId !== null)?.docId ?? null;
  const rec = docId === null ? undefined : journal.getDocument(docId);
  const trashed = rec?.location === 'trash' ? rec : undefined;
  const trashNote = trashed ? versions.find((v) => isTrashNote(v) && v.docId === trashed.id) : undefined;
  // Asked by its Trash/ path, the file goes back where it was before the trash (else where its last version was taken).
  let target = rel;
  if (trashed && rel === trashed.path) {
    const home = trashNote?.path ?? versions.find((v) => v.docId === trashed.id && !v.path.startsWith('Trash/') && isDocumentFile(v.path))?.path;
    if (home === undefined)
      throw new SpacesyncError(
        'usage',
        `"${rel}" is in the trash, but the history does not say where it was before (it began, or was pruned, after the document went there). Move the file out of Trash/ into the folder it belongs in: the next sync takes its document out of the trash there.`,
      );
    target = home;
  }
  // A note of the trash stands for the document as it went there: it is restored only while the document is in the trash.
  const restorable = versions.filter((v) => !isTrashNote(v) || v === trashNote);
  let version: HistoryRecord | undefined;
  if (input.version !== undefined) {
    version = versions.find((v) => v.id === input.version);
    if (!version) throw new SpacesyncError('usage', `"${rel}" has no version ${input.version}; ${hint}.`);
    if (!restorable.includes(version))
      throw new SpacesyncError(
        'usage',
        `Version ${version.id} of "${rel}" is its document going to the trash, and it is out of the trash now${rec ? ` (in "${rec.path}")` : ''}; ${hint}.`,
      );
  } else if (input.at) {
    version = restorable.find((v) => Date.parse(v.at) <= input.at!.getTime());
    if (!version) throw new SpacesyncError('usage', `"${rel}" has no version from ${input.at.toISOString()} or before; ${hint}.`);
  } else {
    // The newest version; a trashed document with none comes back as it went to the trash.
    version = versions.find((v) => !isTrashNote(v)) ?? trashNote;
    if (!version)
      throw new SpacesyncError(
        'usage',
        `"${rel}" has no version to restore: its document went to the trash and is out of it again${rec ? ` (in "${rec.path}")` : ''}; ${hint}.`,
      );
  }
  return { version, target, trashed };
}

/** The text the version gives the file, and its blocks as far as the history holds them. */
async function textOf(
  input: RestoreInput,
  version: HistoryRecord,
  target: string,
  fromTrash: string | null,
  currentText: string | undefined,
  trashed: DocumentRecord | undefined,
): Promise<{ text: string; blocks: readonly HistoryBlock[] }> {
  const { root, journal, path: rel } = input;
  const hint = historyHint(rel);
  let text: string;
  /** The version's blocks, as far as the history holds them: a remote version's all, a local one's with fields its lines do not show. */
  let blocks: readonly HistoryBlock[] = version.blocks ?? [];
  if (isTrashNote(version)) {
    // The file holds the document as it went to the trash: it only moves back.
    if (fromTrash === null || currentText === undefined)
      throw new SpacesyncError(
        'usage',
        `The document of "${rel}" is in the trash, but its file is not in Trash/${trashed ? ` ("${trashed.path}")` : ''}: the next sync writes it there again. Restore again after it.`,
      );
    text = currentText;
  } else if (version.side === 'local') {
    const file = version.versionFile!;
    text = await fsp.readFile(resolveInRoot(root, file)).then(
      (bytes) => unpackVersion(file, bytes),
      (e: unknown) => {
        throw new SpacesyncError('usage', `Version ${version.id} of "${rel}" was pruned from .spacesync/versions/ (retention); ${hint}.`, { cause: e });
      },
    );
  } else {
    blocks = versionBlocks(version.blocks ?? [], version.docId ? journal.getBaseBlocks(version.docId) : []);
    const body = renderVersion(blocks);
    const head = currentText && frontMatterParts(currentText) ? currentText.slice(0, currentText.length - bodyOf(currentText).length) : '';
    const fm = version.docId ? withFrontMatter(head + body, { id: version.docId }, target) : null;
    text = fm?.ok ? fm.text : head + body;
  }
  return { text, blocks };
}

/** The files `text` (the document at `docPath`) links that are not there and that the history kept a version of, with that version's text. */
async function missingFilesOf(root: string, journal: Journal, docPath: string, text: string): Promise<Array<{ path: string; text: string }>> {
  const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((x) => [x, ...flatten(x.children)]);
  const out: Array<{ path: string; text: string }> = [];
  for (const seg of flatten(segmentFile(text).segments)) {
    const ref = seg.kind === 'block' ? localReferenceOf(seg.markdown) : null;
    const file = ref ? resolveReference(docPath, ref.dest) : null;
    if (file === null || out.some((o) => o.path === file) || (await readMirrorFile(root, file)) !== null) continue;
    const kept = journal.listHistory({ path: file }).find((v) => v.path === file && v.side === 'local' && v.versionFile !== null);
    if (!kept) continue;
    const bytes = await fsp.readFile(resolveInRoot(root, kept.versionFile!)).catch(() => null);
    if (bytes !== null) out.push({ path: file, text: unpackVersion(kept.versionFile!, bytes) });
  }
  return out;
}

/**
 * The blocks a remote version stands for. Since the journal's schema 4 a remote version keeps only
 * the blocks the push overwrote or deleted (each marked, a deleted block's subtree with it), so it
 * is read over the document's base as the journal holds it now: overwritten blocks get their old
 * markdown and type back, deleted ones go back under their parent at their position, every other
 * block stays as it is (with its card layout and the fields the file does not show). A version recorded before (the whole document, unchanged blocks unmarked)
 * is already whole.
 */
export function versionBlocks(recorded: readonly HistoryBlock[], base: readonly BaseBlock[]): HistoryBlock[] {
  if (recorded.some((b) => b.change === undefined)) return [...recorded];
  const old = new Map(recorded.map((b) => [b.id, b]));
  const blocks = new Map<string, HistoryBlock>();
  for (const b of base) {
    const before = old.get(b.id);
    // A base block's card layout is in its hash; an edit sent the markdown only, so the fields the file does not show are the base's.
    const layout = before?.cardLayout ?? cardLayoutOf(b).layout;
    const unshown = before?.unshown ?? b.unshown;
    blocks.set(b.id, {
      id: b.id,
      parentId: b.parentId,
      position: b.position,
      level: b.level,
      kind: b.kind,
      type: b.type,
      markdown: b.markdown,
      ...(layout !== undefined ? { cardLayout: layout } : {}),
      ...(unshown !== undefined ? { unshown } : {}),
      ...(before ? { type: before.type, markdown: before.markdown, change: before.change } : {}),
    });
  }
  // Blocks no longer in the base come back at their recorded place; a parent gone too puts them at the root.
  const back = recorded.filter((b) => !blocks.has(b.id));
  for (const b of back) blocks.set(b.id, { ...b });
  for (const b of back) if (b.parentId !== null && !blocks.has(b.parentId)) blocks.set(b.id, { ...b, parentId: null, level: 0 });
  // Siblings in order: the base's among themselves, each block brought back at its recorded index.
  const children = new Map<string | null, HistoryBlock[]>();
  const returning = new Set(back.map((b) => b.id));
  for (const b of blocks.values()) {
    const had = children.get(b.parentId);
    if (had) had.push(b);
    else children.set(b.parentId, [b]);
  }
  const out: HistoryBlock[] = [];
  for (const siblings of children.values()) {
    const staying = siblings.filter((b) => !returning.has(b.id)).sort((x, y) => x.position - y.position);
    const coming = siblings.filter((b) => returning.has(b.id)).sort((x, y) => x.position - y.position);
    for (const b of coming) staying.splice(Math.min(b.position, staying.length), 0, b);
    staying.forEach((b, i) => out.push({ ...b, position: i }));
  }
  return out;
}

/**
 * A remote version (the document as the space held it before a push changed it) as a file body:
 * the flat blocks of the history rebuilt into their tree and rendered as the pull renders a file.
 */
export function renderVersion(blocks: readonly HistoryBlock[]): string {
  const children = new Map<string | null, HistoryBlock[]>();
  for (const b of blocks) {
    const had = children.get(b.parentId);
    if (had) had.push(b);
    else children.set(b.parentId, [b]);
  }
  const make = (b: HistoryBlock): Block => {
    const kids = (children.get(b.id) ?? []).sort((x, y) => x.position - y.position).map(make);
    if (b.kind === 'page' || b.kind === 'card') {
      return {
        id: b.id,
        type: 'page',
        markdown: b.markdown,
        content: kids,
        ...(b.kind === 'card' ? { textStyle: 'card' as const } : {}),
        ...(b.cardLayout ? { cardLayout: b.cardLayout as Block['cardLayout'] } : {}),
      };
    }
    // Its markdown is the block as the file shows it; listStyle only lets list items sit on consecutive lines.
    return { id: b.id, type: b.type as BlockType, markdown: b.markdown, listStyle: 'bullet' };
  };
  return renderFileBody((children.get(null) ?? []).sort((x, y) => x.position - y.position).map(make));
}
