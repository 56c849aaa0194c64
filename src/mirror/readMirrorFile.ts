// Reads one mirror file as text with the hash of its exact bytes (the change detector).
import { promises as fsp } from 'node:fs';
import { hashText } from './hashText.js';
import { mirrorIoError } from './mirrorIoError.js';
import { resolveInRoot } from './resolveInRoot.js';

export interface MirrorFileContent {
  /** The bytes decoded as UTF-8 (a byte-order mark, CRLF, a missing final newline: all kept). */
  text: string;
  /** sha256 hex of the bytes on disk. */
  hash: string;
}

/** The file's text and hash, or null when there is no file at that path. */
export async function readMirrorFile(root: string, relPath: string): Promise<MirrorFileContent | null> {
  const abs = resolveInRoot(root, relPath);
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw mirrorIoError('read', relPath, root, e);
  }
  return { text: bytes.toString('utf8'), hash: hashText(bytes) };
}
