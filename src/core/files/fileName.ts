// Title → file name by fixed rules, so the same space gives the same names on every machine and
// every file system (Linux, macOS, Windows) can hold them.

/** Room left under the 255-byte limit for ` (<id suffix>)`, a conflict copy's ` (conflict <date> <time> n)` and `.md`. */
export const MAX_STEM_BYTES = 180;
export const EMPTY_TITLE = 'Untitled';

const FORBIDDEN = /[/\\:*?"<>|]/g;
// C0, DEL, C1 controls, the Unicode line/paragraph separators, and the bidirectional controls (a
// title with U+202E would show `evil‮dm.exe` as `evilexe.md`): a file name cannot show them.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** How a document's assets folder is named: its file's stem and this (`Roadmap.assets`). */
export const ASSETS_SUFFIX = '.assets';
/** Whether a directory is a document's `.assets` folder (by its name). */
export const isAssetsDir = (relDir: string): boolean => relDir.endsWith(ASSETS_SUFFIX);

const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(?=\.|$)/i;

const encoder = new TextEncoder();
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

/** Cuts `s` to at most `maxBytes` UTF-8 bytes at a grapheme boundary (never inside a character or its accents). */
export function capBytes(s: string, maxBytes: number): string {
  if (utf8Length(s) <= maxBytes) return s;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(s)) {
    const n = utf8Length(segment);
    if (used + n > maxBytes) break;
    out += segment;
    used += n;
  }
  return out;
}

/** Leading/trailing spaces are trimmed, leading/trailing dots replaced (a leading dot hides a file; Windows drops trailing ones). */
function fixEnds(s: string): string {
  return s.replace(/^[ ]+|[ ]+$/g, '').replace(/^\.+|\.+$/g, (dots) => '_'.repeat(dots.length));
}

/**
 * The file-name stem (without `.md`) that carries `title`: NFC, forbidden and control characters replaced,
 * ends fixed, Windows device names defused, capped under MAX_STEM_BYTES; an empty result is `Untitled`.
 */
export function fileStem(title: string, maxBytes = MAX_STEM_BYTES): string {
  let s = title.replace(LONE_SURROGATE, '\uFFFD').normalize('NFC');
  s = s.replace(CONTROL, ' ').replace(FORBIDDEN, '_');
  s = fixEnds(s);
  s = fixEnds(capBytes(s, maxBytes));
  if (s === '') return EMPTY_TITLE;
  return s.replace(WINDOWS_RESERVED, '$1_');
}

/** A stem with a distinguishing suffix, `Roadmap (1a2b3c4d)`, still under the byte cap. */
export function suffixedStem(stem: string, suffix: string): string {
  const tail = ` (${suffix})`;
  const base = fixEnds(capBytes(stem, MAX_STEM_BYTES - utf8Length(tail)));
  return `${base === '' ? EMPTY_TITLE : base}${tail}`;
}

/**
 * The key two names collide under on case-insensitive or normalising file systems (APFS, NTFS):
 * NFC and a full case fold. It over-folds a little (ß ~ ss), which only ever adds a suffix.
 */
export function collisionKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/** The stem of a relative path `A/B/Name.md` → `Name`. */
export function stemOfPath(relPath: string): string {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** The directory of a relative path (`''` at the root). */
export function dirOfPath(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}
