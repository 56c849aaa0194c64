// When two markdowns of one block say the same thing: canonically equal, and for media blocks
// equal but for the signed part of their URLs, which the service changes on every read.
import { typesWhere } from '../../dialect/index.js';
import type { MarkdownEquals } from '../types.js';

/** Block types whose markdown holds a signed asset URL (the dialect's traits). */
export const MEDIA_TYPES = typesWhere((t) => t.media);

/** The markdown with the query and fragment of every link destination removed (`](url?sig=…)` → `](url)`). */
export function withoutSignatures(markdown: string): string {
  return markdown.replace(/\]\(([^()\s?#]*)[?#][^()\s]*\)/g, ']($1)');
}

/** Whether `a` and `b` are the same content for a block of `type` (undefined: not known, e.g. a new local block). */
export function sameContent(type: string | undefined, a: string, b: string, equals: MarkdownEquals): boolean {
  if (a === b) return true;
  if (type !== undefined && MEDIA_TYPES.has(type)) return equals(withoutSignatures(a), withoutSignatures(b));
  return equals(a, b);
}

/**
 * How alike two markdowns are, 0..1: the shared prefix and suffix, or else the shared character
 * pairs (Dice). Cheap, and good enough to tell an edited paragraph from an unrelated one.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const min = Math.min(la, lb);
  let p = 0;
  while (p < min && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < min - p && a.charCodeAt(la - 1 - s) === b.charCodeAt(lb - 1 - s)) s++;
  let ends = (p + s) / Math.max(la, lb);
  // One text whole at the start or end of the other (words added or removed at one end): an edit.
  if (min >= 4 && (p >= min || s >= min)) ends = Math.max(ends, 0.5 + 0.5 * (min / Math.max(la, lb)));
  if (ends >= 0.8 || la < 2 || lb < 2) return ends;
  return Math.max(ends, dice(a.slice(0, 2000), b.slice(0, 2000)));
}

function dice(a: string, b: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i + 1 < a.length; i++) {
    const k = a.charCodeAt(i) * 65536 + a.charCodeAt(i + 1);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const k = b.charCodeAt(i) * 65536 + b.charCodeAt(i + 1);
    const c = counts.get(k);
    if (c) {
      shared++;
      counts.set(k, c - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}
