// Reads one mirror file as text with the hash of its exact bytes (the change detector). The text is
// decoded strictly (decodeStrict): a file that is not UTF-8 comes back without text, with where its
// first bad byte is, so no caller can sync, merge or rewrite what it could not read faithfully.
import { promises as fsp } from 'node:fs';
import { decodeStrict, type UndecodableFile } from './decodeStrict.js';
import { hashText } from './hashText.js';
import { mirrorIoError } from './mirrorIoError.js';
import { resolveInRoot } from './resolveInRoot.js';

export type MirrorFileContent =
  /** The bytes decoded as UTF-8 (a byte-order mark, CRLF, a missing final newline: all kept). */
  | { text: string; hash: string; undecodable?: undefined }
  /** Not UTF-8 text: never to be synced nor written over. */
  | { text: null; hash: string; undecodable: UndecodableFile };

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
  const hash = hashText(bytes);
  const decoded = decodeStrict(bytes);
  return decoded.ok ? { text: decoded.text, hash } : { text: null, hash, undecodable: { offset: decoded.offset, reason: decoded.reason } };
}
