// One document file as the push reads it: its exact text and hash, its front matter (the `id`
// that pairs renames, a `title` the name cannot carry, the user's own keys) and its block segments.
import { parseFrontMatter } from '../../../core/files/frontMatter.js';
import type { LocalDocument } from '../../../core/types.js';
import { segmentFile } from '../../../dialect/index.js';
import { readMirrorFile, type UndecodableFile } from '../../../mirror/index.js';
import { frontMatterParts } from '../../../core/files/fileText.js';
import { claimOf } from '../../../core/files/localChange.js';

export type { LocalDocument };

export function parseLocalDocument(path: string, text: string, hash: string): LocalDocument {
  const frontMatter = parseFrontMatter(frontMatterParts(text)?.inner, `"${path}"`);
  const file = segmentFile(text);
  return { path, text, hash, frontMatter, segments: file.segments, separators: file.separators };
}

/** A file that is not UTF-8 text: never synced, never written over (see decodeStrict). */
export interface UndecodableDocument {
  path: string;
  hash: string;
  undecodable: UndecodableFile;
}

/** The file at `path`, read and cut into blocks; null when there is none. */
export async function readLocalDocument(root: string, path: string): Promise<LocalDocument | UndecodableDocument | null> {
  const file = await readMirrorFile(root, path);
  if (file === null) return null;
  if (file.text === null) return { path, hash: file.hash, undecodable: file.undecodable };
  return parseLocalDocument(path, file.text, file.hash);
}

export const isUndecodable = (d: LocalDocument | UndecodableDocument | null): d is UndecodableDocument => d !== null && 'undecodable' in d;

/** The id the front matter claims, when it parses and has one (core/files/localChange's rule). */
export function claimedId(doc: LocalDocument): string | undefined {
  return claimOf(doc.frontMatter);
}
