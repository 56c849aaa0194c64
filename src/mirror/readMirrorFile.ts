// Reads one mirror file as text with the hash of its exact bytes (the change detector). The text is
// decoded strictly (decodeStrict): a file that is not UTF-8 comes back without text, with where its
// first bad byte is, so no caller can sync, merge or rewrite what it could not read faithfully.
import { promises as fsp } from 'node:fs';
import { resolveInRoot } from './resolveInRoot.js';
import { createHash } from 'node:crypto';
import { SpacesyncError } from '../errors.js';

// The one shape of an I/O failure in the mirror: what failed, on which file, and what to do.
export function mirrorIoError(action: string, relPath: string, root: string, cause: unknown): SpacesyncError {
  const code = (cause as NodeJS.ErrnoException).code;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'The disk is full: free some space, and spacesync goes on at its next cycle (or when run again); nothing was lost.'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `Check that you can write to ${root}.`
        : 'Check the folder and its permissions; spacesync retries on its next cycle.';
  return new SpacesyncError('mirror_io', `Could not ${action} "${relPath}" in ${root}: ${(cause as Error).message}. ${hint}`, {
    cause,
    details: { root, relPath, errno: code },
  });
}

// The content hash the daemon compares files by (never mtimes): sha256 of the bytes, as hex.
/** sha256 hex of a string's UTF-8 bytes, or of raw bytes. */
export function hashText(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

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

// A document file's bytes as text, strictly: UTF-8 with a fatal decoder (a UTF-8 byte-order mark is
// kept as U+FEFF, so the file's bytes come back exactly), and never a file a person saved in another
// encoding: a UTF-16 byte-order mark, a byte sequence that is not UTF-8, or a NUL byte is named with
// the offset of the first bad byte instead of being decoded into replacement characters.
export interface UndecodableFile {
  /** Byte offset of the first bad sequence. */
  offset: number;
  /** What is wrong, for the user. */
  reason: string;
}

export type StrictText = { ok: true; text: string } | ({ ok: false } & UndecodableFile);

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

export function decodeStrict(bytes: Uint8Array): StrictText {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { ok: false, offset: 0, reason: 'it starts with a UTF-16 byte-order mark' };
  }
  const nul = bytes.indexOf(0);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    if (nul >= 0 && (at < 0 || nul < at)) return { ok: false, offset: nul, reason: 'it holds a NUL byte' };
    const hex = Array.from(bytes.subarray(at, at + 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return { ok: false, offset: Math.max(0, at), reason: `the bytes ${hex} are not UTF-8` };
  }
  if (nul >= 0) return { ok: false, offset: nul, reason: 'it holds a NUL byte' };
  return { ok: true, text };
}

/**
 * What of a file that is not UTF-8 can still be read faithfully, never to sync it but to see which
 * document its front matter names: a UTF-16 file whole (by its byte-order mark), else the bytes
 * before the first bad one.
 */
export function readableHead(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return b.subarray(2).toString('utf16le');
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff)
    return Buffer.from(b.subarray(2, b.length - (b.length % 2)))
      .swap16()
      .toString('utf16le');
  const bad = decodeStrict(b);
  return bad.ok ? bad.text : decoder.decode(b.subarray(0, bad.offset));
}

/** What a person reads about a file that is not synced because of its encoding. */
export function undecodableMessage(relPath: string, bad: UndecodableFile): string {
  return `"${relPath}" is not UTF-8 text (${bad.reason}, at byte ${bad.offset}): it was not synced and is left exactly as it is. Save it as UTF-8 in your editor; the next cycle syncs it.`;
}
