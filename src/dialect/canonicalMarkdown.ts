// The service's canonical form of a block's markdown, and canonical equality of two block markdowns: equal when
// they differ only by forms the service normalises, so a file never ping-pongs with the service.
import { createRequire } from 'node:module';
import type { Root } from 'mdast';
import { parseBlockMarkdown } from './parseBlockMarkdown.js';
import { dateSuffix, splitTaskDates } from './taskDates.js';
import type { ParsedBlock } from './types.js';
import { renderBlockMarkdown } from './renderBlocks.js';
import { normalizeInline } from './readBlock.js';
import { isSpacesyncError } from '../errors.js';

/**
 * The service's canonical form of one block's markdown, what it answers after a write: `_x_` → `*x*`, `==x==` → a yellow highlight, `---` → `*****`, list markers and prefixes in their
 * canonical spelling, CRLF → LF; trailing spaces are kept. Markdown that is not one valid block
 * gets only the inline and line-ending normalisations.
 */
export function normalizeMarkdown(markdown: string): string {
  try {
    return renderBlockMarkdown(parseBlockMarkdown(markdown));
  } catch (e) {
    if (!isSpacesyncError(e, 'dialect_input')) throw e;
    return normalizeInline(markdown.replace(/\r\n/g, '\n'));
  }
}

const LIMIT = 20_000;
const canonicalCache = new Map<string, string>();
const treeCache = new Map<string, string>();
const equalCache = new Map<string, boolean>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * The normalised form with trailing whitespace of every line removed and line endings as LF; a task's
 * date signifiers (taskDates.ts) in their one spelling at the end of the service's markdown.
 */
export function canonicalMarkdown(md: string): string {
  const hit = canonicalCache.get(md);
  if (hit !== undefined) return hit;
  const split = splitTaskDates(md);
  const canon =
    normalizeMarkdown(split.markdown)
      .replace(/[ \t]+$/gm, '')
      .replace(/\n+$/, '') + dateSuffix(split);
  return remember(canonicalCache, md, canon);
}

/**
 * The CommonMark + GFM + math parser, loaded the first time two blocks differ only by emphasis
 * delimiters: most processes never get there, and the parser with its extensions (KaTeX among them)
 * is ~18 MiB of resident set, a daemon's idle cost otherwise.
 */
let parser: ((md: string) => Root) | undefined;
function parse(md: string): Root {
  if (!parser) {
    const load = createRequire(import.meta.url);
    const { unified } = load('unified') as typeof import('unified');
    const { default: remarkParse } = load('remark-parse') as typeof import('remark-parse');
    const { default: remarkGfm } = load('remark-gfm') as typeof import('remark-gfm');
    const { default: remarkMath } = load('remark-math') as typeof import('remark-math');
    const processor = unified().use(remarkParse).use(remarkGfm).use(remarkMath);
    parser = (text) => processor.parse(text);
  }
  return parser(md);
}

/** The mdast of a markdown, positions dropped, as a string: two texts that read the same compare equal. */
function treeOf(md: string): string {
  const hit = treeCache.get(md);
  if (hit !== undefined) return hit;
  const tree = parse(md);
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
