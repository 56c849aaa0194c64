// A block of a file that references a local file to upload: an image `![alt](path)` or an
// attachment line `[text](path)` alone in its block, where the path is relative (no scheme, not
// absolute, no anchor), and for an attachment line names a file with an extension that is not a
// document (`.md`); a whiteboard's scene file (`.excalidraw`) counts. The path is relative to the document's folder; one that leaves the mirror root
// resolves to null (never uploaded).
import { dirOfPath } from '../files/fileName.js';
import { SCENE_EXT } from './linkAssets.js';

export interface LocalReference {
  /** The link's destination as the file writes it (angle brackets removed, not decoded). */
  dest: string;
  /** The alt text or link text. */
  text: string;
  image: boolean;
}

const WHOLE = /^(!?)\[([^\]\n]*)\]\((<[^<>\n]*>|[^()\s]*)\)$/;

/** The local file one block's markdown references, or null when it is no such block. */
export function localReferenceOf(markdown: string): LocalReference | null {
  const m = WHOLE.exec(markdown.trim());
  if (!m) return null;
  const raw = m[3]!;
  const dest = raw.startsWith('<') ? raw.slice(1, -1) : raw;
  if (dest === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(dest) || dest.startsWith('/') || dest.startsWith('#') || dest.includes('?')) return null;
  const image = m[1] === '!';
  // A whiteboard's scene (`.excalidraw`) is a local file too: a new line linking one draws the board.
  if (!(/\.[A-Za-z0-9]{1,8}$/.test(dest) || dest.endsWith(SCENE_EXT)) || /\.md$/i.test(dest)) return null;
  return { dest, text: m[2]!, image };
}

/** The file `dest` names, relative to the mirror root, from the document at `docPath`; null when it leaves the root. */
export function resolveReference(docPath: string, dest: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURI(dest);
  } catch {
    decoded = dest;
  }
  const parts = dirOfPath(docPath) === '' ? [] : dirOfPath(docPath).split('/');
  for (const p of decoded.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.length === 0 ? null : parts.join('/');
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

/** The Content-Type an upload of `file` is sent with (it decides the block's type): by extension, else bytes. */
export function contentTypeOf(file: string): string {
  return TYPES[/\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The block type the service makes of an upload of that content type. */
export const uploadedTypeOf = (contentType: string): 'image' | 'video' | 'file' =>
  contentType.startsWith('image/') ? 'image' : contentType.startsWith('video/') ? 'video' : 'file';

// An image's alt text on its way up. `POST /upload` takes the bytes and a place only (its `fileName`
// is ignored for images, the contract says), so the service makes the block with its default alt
// text, `![Image](…)`. The alt text the file's line gives is then sent as an edit of the block's
// markdown, the field the contract documents for it (an image's alt text is its markdown's `![…]`),
// so the space shows what the file says and a later pull gives the line back as it is.
/** The alt text the service gives an image made without one. */
const DEFAULT_ALT = 'Image';
const ALT = /^(\s*!\[)([^\]\n]*)(\])/;

/** The alt text `markdown` (the file's line) gives a new block of `type` that its upload cannot carry; undefined when there is none to send. */
export function altTextToSend(markdown: string, type: string): string | undefined {
  // Only an image keeps an alt text: a video's markdown is derived by the service, a file's text is its name (sent with the upload).
  if (type !== 'image') return undefined;
  const alt = ALT.exec(markdown)?.[2];
  return alt === undefined || alt.trim() === '' || alt === DEFAULT_ALT ? undefined : alt;
}

/** The line as the block holds it while its alt text is not sent: the service's default in its place. */
export const withDefaultAlt = (markdown: string): string => markdown.replace(ALT, `$1${DEFAULT_ALT}$3`);
