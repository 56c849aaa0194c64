// What counts as a local change: the one rule the push's scan, the pull and `status` read the
// mirror with. Content against the base decides (a file's hash, never its mtime); a file that
// names a known document's id in its front matter is that document, wherever it is; a file that
// cannot be read as UTF-8 is held back, neither changed nor gone. The callers read the files
// (src/sync/documents/push/scanLocal, src/sync/documents/pull/detectLocalChanges, src/sync/cycle/pendingChanges); this
// module only decides.
import { dirOfPath, stemOfPath } from './fileName.js';
import { parseFrontMatter, type ParsedFrontMatter } from './frontMatter.js';
import { frontMatterParts } from './fileText.js';
import type { LocalChange } from '../pull/PullPlan.js';

/** What reading one file found: null (no file), or its hash and, for UTF-8 text, its front matter's facts. */
export type FileReading = null | { hash: string; undecodable: true } | FileFacts;

export interface FileFacts {
  hash: string;
  undecodable?: false;
  /** The front matter parsed; a file whose front matter does not parse is a problem, not a change. */
  frontMatterOk: boolean;
  /** The document id its front matter names, when it names one. */
  claim: string | undefined;
}

/**
 * A file at the path the journal records for a document:
 * - `unchanged`: its bytes are the base's (or it is the pull's: no file was recorded yet);
 * - `edited`: its bytes differ from the base;
 * - `missing`: no file there;
 * - `heldBack`: it is not UTF-8 text (never sent, never written over, never taken as gone);
 * - `unparsable`: its front matter does not parse (a problem to fix, nothing sent);
 * - `elsewhere`: it names another known document: that document moved here, this one's file is gone.
 */
export type RecordedFileChange = 'unchanged' | 'edited' | 'missing' | 'heldBack' | 'unparsable' | 'elsewhere';

/** The id a parsed front matter names, when it names one (an empty id names none). */
export function claimOf(frontMatter: ParsedFrontMatter): string | undefined {
  return frontMatter.ok && frontMatter.id !== undefined && frontMatter.id !== '' ? frontMatter.id : undefined;
}

/**
 * The reading of a file read whole (text null: not UTF-8). Its front matter is parsed only when its
 * bytes are not `baseHash`: the rule decides a file holding the base unchanged before it looks at it.
 */
export function readingOf(hash: string, text: string | null, baseHash: string | null, where?: string): FileReading {
  if (text === null) return { hash, undecodable: true };
  if (hash === baseHash) return { hash, frontMatterOk: true, claim: undefined };
  const frontMatter = parseFrontMatter(frontMatterParts(text)?.inner, where);
  return { hash, frontMatterOk: frontMatter.ok, claim: claimOf(frontMatter) };
}

export function changeOfRecordedFile(record: { id: string; fileHash: string | null }, file: FileReading, isKnown: (id: string) => boolean): RecordedFileChange {
  if (record.fileHash === null) {
    // Not written yet: the pull's. A file there naming this document is one a stopped pull wrote
    // but did not record: edited (merged with no base), so the pull stops leaving it aside.
    return file !== null && !file.undecodable && file.frontMatterOk && file.claim === record.id ? 'edited' : 'unchanged';
  }
  if (file === null) return 'missing';
  if (file.hash === record.fileHash) return 'unchanged';
  if (file.undecodable) return 'heldBack';
  if (!file.frontMatterOk) return 'unparsable';
  if (file.claim !== undefined && file.claim !== record.id && isKnown(file.claim)) return 'elsewhere';
  return 'edited';
}

/**
 * What the pull makes of a recorded file: it leaves alone every file that differs from the base
 * (`edited`) or is gone (`missing`), whatever the push will make of it.
 */
export function pullChangeOf(change: RecordedFileChange): LocalChange | null {
  if (change === 'unchanged') return null;
  return change === 'missing' ? 'missing' : 'edited';
}

/**
 * Pairs files that are no recorded document's with the documents whose file is gone: a file naming
 * a gone document's id is that document moved (the likeliest first when several name it: same name,
 * then same folder, then the first path); every other file is new.
 */
export function pairMoved<F extends { path: string }>(
  gone: ReadonlyMap<string, { path: string }>,
  strangers: readonly F[],
  claimOfFile: (f: F) => string | undefined,
): { moved: Array<{ id: string; file: F }>; added: F[] } {
  const claims = new Map<string, F[]>();
  const added: F[] = [];
  for (const f of strangers) {
    const id = claimOfFile(f);
    if (id !== undefined && gone.has(id)) claims.set(id, [...(claims.get(id) ?? []), f]);
    else added.push(f);
  }
  const moved: Array<{ id: string; file: F }> = [];
  for (const [id, files] of claims) {
    const was = gone.get(id)!;
    const score = (f: F) => (stemOfPath(f.path) === stemOfPath(was.path) ? 2 : 0) + (dirOfPath(f.path) === dirOfPath(was.path) ? 1 : 0);
    const [best, ...rest] = [...files].sort((a, b) => score(b) - score(a) || (a.path < b.path ? -1 : 1));
    moved.push({ id, file: best! });
    added.push(...rest);
  }
  return { moved, added };
}

/**
 * Where the file of a document an earlier run created went, when it is no longer at the path the
 * create was sent from (moved before the id was written into it): among the files that name no
 * document, the one holding exactly the bytes that were sent, else the only one of the same name.
 * Null when none or several could be it (the file is then taken as new, never guessed).
 */
export function movedCreateOf(was: { path: string; hash: string | null }, candidates: ReadonlyArray<{ path: string; reading: FileReading }>): string | null {
  const unclaimed = candidates.filter((c) => c.reading !== null && !c.reading.undecodable && c.reading.frontMatterOk && c.reading.claim === undefined);
  const same = unclaimed.filter((c) => was.hash !== null && c.reading!.hash === was.hash);
  if (same.length === 1) return same[0]!.path;
  if (same.length > 1) return null;
  const named = unclaimed.filter((c) => stemOfPath(c.path) === stemOfPath(was.path));
  return named.length === 1 ? named[0]!.path : null;
}

/**
 * Documents whose file is gone are taken as deleted only when none could be moved where it cannot
 * be seen: an unreadable file (its id cannot be read until it is saved as UTF-8), or a folder of the
 * space replaced by a symbolic link (never read through).
 */
export function goneAreDeleted(goneCount: number, placesUnseen: number): boolean {
  return goneCount === 0 || placesUnseen === 0;
}

/** Why documents whose file is gone are not taken as deleted (goneAreDeleted), and what lets them go: one sentence for each. */
export function deletionHeldMessage(path: string, unreadable: readonly string[], links: readonly string[]): string {
  const why: string[] = [];
  const until: string[] = [];
  if (unreadable.length > 0) {
    why.push(
      unreadable.length === 1 ? `${unreadable[0]} cannot be read and may be it, moved` : `${unreadable.join(', ')} cannot be read and one may be it, moved`,
    );
    until.push(unreadable.length === 1 ? 'that file is saved as UTF-8 or removed' : 'those files are saved as UTF-8 or removed');
  }
  if (links.length > 0) {
    const quoted = links.map((l) => `"${l}"`).join(', ');
    why.push(
      links.length === 1
        ? `the folder ${quoted} is a symbolic link it may have been moved into`
        : `the folders ${quoted} are symbolic links it may have been moved into`,
    );
    until.push(links.length === 1 ? 'the link is replaced with the real folder' : 'the links are replaced with the real folders');
  }
  return `"${path}" is gone, but ${why.join(', and ')}: its document is not moved to the trash until ${until.join(' and ')}.`;
}
