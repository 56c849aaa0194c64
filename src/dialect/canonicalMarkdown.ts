// Canonical equality of two block markdowns: equal when they differ only by forms the service
// normalises, so a file never ping-pongs with the service.
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { normalizeMarkdown } from './normalizeMarkdown.js';
import { parseBlockMarkdown } from './parseBlockMarkdown.js';
import type { ParsedBlock } from './types.js';

const LIMIT = 20_000;
const canonicalCache = new Map<string, string>();
const treeCache = new Map<string, string>();
const equalCache = new Map<string, boolean>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** The normalised form with trailing whitespace of every line removed and line endings as LF. */
export function canonicalMarkdown(md: string): string {
  const hit = canonicalCache.get(md);
  if (hit !== undefined) return hit;
  const canon = normalizeMarkdown(md).replace(/[ \t]+$/gm, '').replace(/\n+$/, '');
  return remember(canonicalCache, md, canon);
}

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkMath);

/** The mdast of a markdown, positions dropped, as a string: two texts that read the same compare equal. */
function treeOf(md: string): string {
  const hit = treeCache.get(md);
  if (hit !== undefined) return hit;
  const tree = processor.parse(md);
  const json = JSON.stringify(tree, (k, v: unknown) => (k === 'position' ? undefined : v));
  return remember(treeCache, md, json);
}

export function markdownEquals(a: string, b: string): boolean {
  if (a === b) return true;
  const ca = canonicalMarkdown(a);
  const cb = canonicalMarkdown(b);
  if (ca === cb) return true;
  const key = ca.length < cb.length || (ca.length === cb.length && ca < cb) ? `${ca}\u0000${cb}` : `${cb}\u0000${ca}`;
  const hit = equalCache.get(key);
  if (hit !== undefined) return hit;
  return remember(equalCache, key, sameInlineReading(ca, cb));
}

/**
 * Emphasis written with other delimiters than the regular normalisation catches (`_a_b`, nested
 * `__`…): same block fields, bodies equal but for `*` and `_`, and the same mdast.
 */
function sameInlineReading(a: string, b: string): boolean {
  const strip = (s: string) => s.replace(/[*_]/g, '');
  if (strip(a) !== strip(b)) return false;
  let pa: ParsedBlock;
  let pb: ParsedBlock;
  try {
    pa = parseBlockMarkdown(a);
    pb = parseBlockMarkdown(b);
  } catch {
    return false;
  }
  const { body: ba, ...fa } = pa;
  const { body: bb, ...fb } = pb;
  if (pa.type !== 'text' || JSON.stringify(fa) !== JSON.stringify(fb)) return false;
  return treeOf(ba) === treeOf(bb);
}
