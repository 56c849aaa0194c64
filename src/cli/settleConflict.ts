// Settling a conflict the daemon kept (the space's version in the document's file, yours in a copy
// beside it): keep yours (the copy's text replaces the file, the next sync sends it), keep the
// space's (the copy goes), keep both (the copy becomes a note of its own), or neither (the user
// merged by hand); each then marks the conflict resolved. `spacesync conflicts resolve` and the
// console both call this, so a conflict settles the same way from either, with or without a daemon.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { SpacesyncError } from '../errors.js';
import type { ConflictRecord, Journal } from '../journal/index.js';
import { isConflictCopy, readMirrorFile, resolveForWrite, resolveInRoot, writeFileAtomic } from '../mirror/index.js';
import { frontMatterParts, withFrontMatter } from '../core/files/fileText.js';
import { parseFrontMatter } from '../core/files/frontMatter.js';
import { localTime, shellQuote } from './format.js';

export const KEEPS = ['mine', 'space', 'both'] as const;
export type Keep = (typeof KEEPS)[number];

export interface Settled {
  conflict: ConflictRecord;
  /** What was done, a sentence each, in the order it was done. */
  said: string[];
  /** Keep both: the copy's new name (a note of its own, sent by the next sync). */
  newFile?: string;
}

/** Finds a conflict by its number or its copy's path (relative to the mirror, or to the current folder). */
export function findConflict(journal: Journal, root: string, which: string): ConflictRecord | undefined {
  if (/^#?\d+$/.test(which)) return journal.getConflict(Number(which.replace('#', '')));
  const all = journal.listConflicts({ includeResolved: true });
  const candidates = new Set([which.split(path.sep).join('/'), path.relative(root, path.resolve(which)).split(path.sep).join('/')]);
  const matches = all.filter((c) => candidates.has(c.copyPath));
  return matches.find((c) => c.resolvedAt === null) ?? matches[0];
}

/** The copy's text, or a usage error saying why there is none to keep. */
async function copyText(root: string, c: ConflictRecord, keep: Keep): Promise<string> {
  const copy = await readMirrorFile(root, c.copyPath);
  const dir = shellQuote(root);
  if (copy === null)
    throw new SpacesyncError(
      'usage',
      `The copy ${c.copyPath} is gone, so there is no version of yours to keep (--keep ${keep}). Keep the space's with \`spacesync conflicts resolve ${c.id} --dir ${dir} --keep space\`.`,
    );
  if (copy.text === null)
    throw new SpacesyncError(
      'usage',
      `The copy ${c.copyPath} is not UTF-8 text, so it was left as it is. Save it as UTF-8, then settle conflict #${c.id} again.`,
    );
  return copy.text;
}

/** The document's file now: where the journal has it (it may have moved since), else where the conflict was. */
function documentPath(journal: Journal, c: ConflictRecord): string {
  const rec = journal.getDocument(c.docId);
  return rec && rec.location !== 'trash' ? rec.path : c.path;
}

/** The copy's text naming the document (its front matter's `id`), so the file stays that document's. */
function namingDocument(text: string, c: ConflictRecord, where: string): string {
  const parts = frontMatterParts(text);
  const parsed = parseFrontMatter(parts?.inner, where);
  if (!parsed.ok) throw new SpacesyncError('usage', `${parsed.problem} Then settle conflict #${c.id} again.`);
  if (parsed.id === c.docId) return text;
  const named = withFrontMatter(text, { id: c.docId, title: parsed.title }, where);
  if (!named.ok) throw new SpacesyncError('usage', `${named.problem} Then settle conflict #${c.id} again.`);
  return named.text;
}

/**
 * The copy's text as a new note's: without the `id` (it would name the document the file holds) nor
 * the `title` (the new name carries it); the user's other keys stay.
 */
export function asNewNote(text: string, where: string): string {
  const parts = frontMatterParts(text);
  if (!parts) return text;
  const doc = YAML.parseDocument(parts.inner);
  if (doc.errors.length > 0 || (doc.contents !== null && !YAML.isMap(doc.contents)))
    throw new SpacesyncError('usage', `The front matter of ${where} is not valid YAML. Fix it, then settle the conflict again.`);
  if (!doc.has('id') && !doc.has('title')) return text;
  doc.delete('id');
  doc.delete('title');
  const body = text.slice(parts.end);
  const bom = parts.open.startsWith('\uFEFF') ? '\uFEFF' : '';
  if (!YAML.isMap(doc.contents) || doc.contents.items.length === 0) return bom + body;
  return `${parts.open}${doc.toString({ lineWidth: 0 })}${parts.close}${body}`;
}

/** The copy's own name without its conflict mark, or (when that is taken) with "(mine)", "(mine 2)"…. */
async function newNoteName(root: string, copyPath: string): Promise<string> {
  const dir = path.posix.dirname(copyPath);
  const ext = path.posix.extname(copyPath);
  const stem = path.posix.basename(copyPath, ext).replace(/ \(conflict \d{4}-\d{2}-\d{2} \d{6}(?: [1-9]\d*)?\)$/, '');
  const at = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  const taken = (rel: string) =>
    fsp.lstat(resolveInRoot(root, rel)).then(
      () => true,
      () => false,
    );
  if (!(await taken(at(`${stem}${ext}`)))) return at(`${stem}${ext}`);
  for (let n = 1; ; n++) {
    const candidate = at(`${stem} (mine${n > 1 ? ` ${n}` : ''})${ext}`);
    if (!(await taken(candidate))) return candidate;
  }
}

/** Removes the copy; false when it was already gone. Only ever a file named like a conflict copy. */
async function removeCopy(root: string, c: ConflictRecord): Promise<boolean> {
  if (!isConflictCopy(c.copyPath))
    throw new SpacesyncError('usage', `${c.copyPath} is not named like a conflict copy, so it was not deleted. Delete it by hand if you are sure.`);
  try {
    await fsp.rm(resolveForWrite(root, c.copyPath));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new SpacesyncError(
      'mirror_io',
      `Could not delete the copy ${c.copyPath}: ${(e as Error).message}. Delete it by hand, then mark the conflict resolved.`,
      {
        cause: e,
      },
    );
  }
}

/**
 * Applies `keep` (none: the files stay as they are) to a conflict, then marks it resolved. The files
 * change first: a failure leaves the conflict open, to be settled again.
 */
export async function settleConflict(input: { root: string; journal: Journal; conflict: ConflictRecord; keep?: Keep }): Promise<Settled> {
  const { root, journal, conflict: c, keep } = input;
  const said: string[] = [];
  let newFile: string | undefined;
  if (keep === 'mine') {
    const file = documentPath(journal, c);
    const text = namingDocument(await copyText(root, c, keep), c, c.copyPath);
    await writeFileAtomic(root, file, text);
    await removeCopy(root, c);
    said.push(`Your version from ${c.copyPath} replaced ${file}; the next sync sends it to the space. The copy is deleted.`);
  } else if (keep === 'both') {
    const text = asNewNote(await copyText(root, c, keep), c.copyPath);
    newFile = await newNoteName(root, c.copyPath);
    await writeFileAtomic(root, newFile, text);
    await removeCopy(root, c);
    said.push(`Your version from ${c.copyPath} is now a note of its own, ${newFile}; the next sync sends it as a new document. ${c.path} keeps the space's.`);
  } else if (keep === 'space') {
    said.push(
      (await removeCopy(root, c)) ? `Deleted the copy ${c.copyPath}; ${c.path} keeps the space's version.` : `The copy ${c.copyPath} was already gone.`,
    );
  }
  if (c.resolvedAt === null) {
    journal.resolveConflict(c.id);
    said.push(`Conflict #${c.id} on ${c.path} is marked resolved.`);
  } else {
    said.push(`Conflict #${c.id} on ${c.path} was already resolved (${localTime(c.resolvedAt)}).`);
  }
  const resolved = journal.getConflict(c.id) ?? c;
  return { conflict: resolved, said, ...(newFile ? { newFile } : {}) };
}
