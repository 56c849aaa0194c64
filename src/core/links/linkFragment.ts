// The part after `#` of a link to a block: `^<short id>` for a block with its marker, or a heading's
// plain text, percent-encoded as a URI fragment (`Goals%20for%202026`). Letters of any script stay as
// they are, as in the paths; spaces, `%`, brackets, parentheses and the like are escaped, so a bare
// destination stays one.

const KEEP = /[A-Za-z0-9\-._~!$&'*+,;=:@/?]/;

/** A fragment (a heading's text, or `^short`) as a link writes it after `#`. */
export function writeFragment(fragment: string): string {
  if (fragment.startsWith('^')) return fragment;
  let out = '';
  for (const ch of fragment) {
    const code = ch.codePointAt(0)!;
    if (KEEP.test(ch) || (code >= 0x80 && !/\s/u.test(ch))) out += ch;
    else out += code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(ch);
  }
  return out;
}

/** A fragment as written after `#`, read: `^short` as it is, a heading's text decoded; null when it cannot be decoded or is empty. */
export function readFragment(written: string): string | null {
  if (written.startsWith('^')) return written.length > 1 ? written : null;
  try {
    const text = decodeURIComponent(written);
    return text === '' ? null : text;
  } catch {
    return null;
  }
}
