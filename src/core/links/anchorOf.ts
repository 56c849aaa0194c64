// How a link names a block inside a document, from the document's base (its file's form): a heading by
// its plain text, which VS Code (slugified the GitHub way) and Obsidian both find, when no other
// heading of the document reads the same and the text holds nothing Obsidian refuses in a link;
// any other block by `^` and its short id, which the block's marker carries.
import { headingSlug, headingText, withoutMarker } from '../../dialect/index.js';
import { shortIdsOf } from './shortIdsOf.js';
import type { BaseBlock } from '../types.js';

/** What naming a block needs of a document's blocks: a base, or the service's blocks as a push read them. */
export type AnchorBlock = Pick<BaseBlock, 'id' | 'kind' | 'markdown'>;

/** Characters a heading link cannot hold in Obsidian: such a heading is named by its short id. */
const REFUSED = /[#^[\]|\\]/;

/** The heading text of each block of `base` that is a heading (its own marker left out), by id. */
export function headingsOf(base: readonly AnchorBlock[], shorts: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of base) {
    if (b.kind !== 'block') continue;
    const text = headingText(withoutMarker(b.markdown, shorts.get(b.id)!));
    if (text !== null) out.set(b.id, text);
  }
  return out;
}

/** The fragment (after `#`, not yet encoded) that names block `id` in the document of `base`; undefined when `base` has no such block. */
export function anchorOf(id: string, base: readonly AnchorBlock[]): string | undefined {
  if (!base.some((b) => b.id === id)) return undefined;
  const shorts = shortIdsOf(base.map((b) => b.id));
  const headings = headingsOf(base, shorts);
  const text = headings.get(id);
  if (text !== undefined && text !== '' && !REFUSED.test(text) && headingSlug(text) !== '') {
    const slug = headingSlug(text);
    if (![...headings].some(([other, t]) => other !== id && headingSlug(t) === slug)) return text;
  }
  return `^${shorts.get(id)!}`;
}
