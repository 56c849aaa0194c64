// Puts a cut file back together from its pieces: front matter, separators, segments (recursively):
// what the tests hold segmentFile to, byte for byte.
import type { FileSegments, Segment } from '../../src/dialect/types.js';

/** A segment's bytes: a page or card from its open tag, children, separators and close tag; any other block its text. */
function joinSegment(s: Segment): string {
  if (s.open === undefined || s.close === undefined || !s.separators) return s.text;
  let out = s.open;
  s.children.forEach((c, i) => {
    out += s.separators![i]! + joinSegment(c);
  });
  return out + s.separators[s.children.length]! + s.close;
}

export function joinSegments(f: FileSegments): string {
  let out = f.frontMatter?.raw ?? '';
  f.segments.forEach((s, i) => {
    out += f.separators[i]! + joinSegment(s);
  });
  return out + (f.separators[f.segments.length] ?? '');
}
