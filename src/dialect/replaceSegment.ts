// Rewrites one block of a file in place: only that block's range changes, when the dialect allows.
import type { Segment } from './types.js';
import { segmentFile } from './segmentFile.js';

const flatten = (segs: Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** The text that stands for `markdown` in the place of `seg`: wrapper indentation and line endings of the file. */
function slotText(seg: Segment, markdown: string, eol: string): string | null {
  let md = markdown;
  if (seg.inCallout) {
    // Inside a callout over several blocks the tags are shared; a block leaving the callout cannot stay there.
    if (!md.startsWith('<callout>') || !md.endsWith('</callout>')) return null;
    md = md.slice(9, -10);
  }
  const pad = ' '.repeat(seg.indent);
  return md
    .split('\n')
    .map((l, i) => (i === 0 || l === '' ? l : pad + l))
    .join(eol);
}

/**
 * `text` with the block of `seg` (a segment segmentFile found in `text`) replaced by `markdown`,
 * touching nothing else but, when needed, the line breaks right around it. Pages and cards have
 * their title replaced. Returns null when the result would not read back as the same blocks with
 * the new markdown in that place; the caller then renders the whole file.
 */
export function replaceSegment(text: string, seg: Segment, markdown: string): string | null {
  const before = flatten(segmentFile(text).segments);
  const index = before.findIndex((s) => s.start === seg.start && s.end === seg.end && s.kind === seg.kind && s.depth === seg.depth);
  if (index < 0 || seg.kind === 'readonly') return null;
  const eol = /\r\n/.test(seg.text) || (!seg.text.includes('\n') && text.includes('\r\n')) ? '\r\n' : '\n';
  const candidates: string[] = [];
  if (seg.kind === 'page' || seg.kind === 'card') {
    if (markdown.includes('\n')) return null;
    const open = seg.open ?? '';
    const t = open.indexOf('<pageTitle>');
    const e = open.indexOf('</pageTitle>');
    if (t < 0 || e < t) return null;
    candidates.push(text.slice(0, seg.start + t + 11) + markdown + text.slice(seg.start + e));
  } else {
    const slot = slotText(seg, markdown, eol);
    if (slot === null) return null;
    candidates.push(text.slice(0, seg.start) + slot + text.slice(seg.end));
    // A list item that became a paragraph (or the reverse) may need blank lines around it.
    const head = text.slice(0, seg.start).replace(/([^\r\n][ \t]*)\r?\n([ \t]*)$/, `$1${eol}${eol}$2`);
    const tail = text.slice(seg.end).replace(/^[ \t]*\r?\n(?=[ \t]*\S)/, `${eol}${eol}`);
    candidates.push(head + slot + tail);
  }
  for (const next of candidates) {
    const after = flatten(segmentFile(next).segments);
    if (after.length !== before.length) continue;
    const ok = after.every((s, i) =>
      i === index ? s.kind === seg.kind && s.markdown === markdown : s.kind === before[i]!.kind && s.markdown === before[i]!.markdown,
    );
    if (ok) return next;
  }
  return null;
}
