// `spacesync restore`: writes one version of the history back into its file, as the user would:
// the next cycle sends it as an ordinary edit (restored blocks get new ids, nothing else is
// touched). A document in the trash has its file moved back out first, so the cycle restores it.
// The file's current bytes become a version themselves, so a restore can be undone.
import { promises as fsp } from 'node:fs';
import { SpacesyncError } from '../../errors.js';
import type { HistoryRecord, Journal } from '../../journal/index.js';
import { moveFileAtomic, readMirrorFile, resolveInRoot, writeFileAtomic } from '../../mirror/index.js';
import { bodyOf, frontMatterParts, withFrontMatter } from '../../core/files/fileText.js';
import { renderVersion } from './renderVersion.js';
import { saveLocalVersion } from './saveLocalVersion.js';
import { versionBlocks } from './versionBlocks.js';
import { unpackVersion } from './versionsDir.js';
import type { SyncSettings } from '../context/index.js';

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
  /** The text written (or that would be). */
  text: string;
  /** The file was in Trash/ (its document trashed): moved back to `path` first. */
  fromTrash: string | null;
  written: boolean;
}

/** The versions of a file: those taken at its path, and those of the document it holds (or held there). */
export function versionsOf(journal: Journal, relPath: string): HistoryRecord[] {
  const docId = journal.getDocumentByPath(relPath)?.id ?? journal.listHistory({ path: relPath }).find((h) => h.docId !== null)?.docId ?? undefined;
  return journal.listHistory({ path: relPath, ...(docId ? { docId } : {}) });
}

export async function restoreVersion(input: RestoreInput): Promise<RestorePlan> {
  const { root, journal, path: rel } = input;
  const versions = versionsOf(journal, rel);
  const hint = `\`spacesync history "${rel}"\` lists them`;
  if (versions.length === 0)
    throw new SpacesyncError(
      'usage',
      `"${rel}" has no versions in the history (nothing the sync replaced or deleted of it is kept). Check the path: it is relative to the mirror folder.`,
    );
  let version: HistoryRecord | undefined;
  if (input.version !== undefined) {
    version = versions.find((v) => v.id === input.version);
    if (!version) throw new SpacesyncError('usage', `"${rel}" has no version ${input.version}; ${hint}.`);
  } else if (input.at) {
    version = versions.find((v) => Date.parse(v.at) <= input.at!.getTime());
    if (!version) throw new SpacesyncError('usage', `"${rel}" has no version from ${input.at.toISOString()} or before; ${hint}.`);
  } else version = versions[0]!;

  // The document's file now: where the record says, which is in Trash/ when the document was trashed.
  const rec = version.docId ? journal.getDocument(version.docId) : undefined;
  const fromTrash = rec && rec.location === 'trash' && rec.path !== rel && (await readMirrorFile(root, rec.path)) !== null ? rec.path : null;
  const current = await readMirrorFile(root, fromTrash ?? rel);
  const currentText = current?.text ?? undefined;
  if (current && current.text === null)
    throw new SpacesyncError(
      'usage',
      `"${fromTrash ?? rel}" is not UTF-8 text, so it was not touched. Save it as UTF-8 (or move it away), then restore again.`,
    );

  let text: string;
  if (version.side === 'local') {
    const file = version.versionFile!;
    text = await fsp.readFile(resolveInRoot(root, file)).then(
      (bytes) => unpackVersion(file, bytes),
      (e: unknown) => {
        throw new SpacesyncError('usage', `Version ${version!.id} of "${rel}" was pruned from .spacesync/versions/ (retention); ${hint}.`, { cause: e });
      },
    );
  } else {
    const body = renderVersion(versionBlocks(version.blocks ?? [], version.docId ? journal.getBaseBlocks(version.docId) : []));
    const head = currentText && frontMatterParts(currentText) ? currentText.slice(0, currentText.length - bodyOf(currentText).length) : '';
    const fm = version.docId ? withFrontMatter(head + body, { id: version.docId }, rel) : null;
    text = fm?.ok ? fm.text : head + body;
  }
  const plan: RestorePlan = { version, text, fromTrash, written: false };
  if (input.dryRun) return plan;

  if (fromTrash) {
    const moved = await moveFileAtomic(root, fromTrash, rel);
    if (!moved.ok) throw new SpacesyncError('mirror_io', `${moved.message} Move "${rel}" away, then restore again.`);
  }
  if (currentText !== undefined && currentText !== text) {
    await saveLocalVersion(
      { root, journal, now: input.now, settings: input.settings },
      { path: rel, docId: version.docId, text: currentText, replacement: text, cause: 'restore' },
    );
  }
  if (currentText !== text) await writeFileAtomic(root, rel, text);
  plan.written = true;
  return plan;
}
