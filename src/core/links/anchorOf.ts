// How a link names a block inside a document, from the document's base (its file's form): a heading by
// its plain text, which VS Code (slugified the GitHub way) and Obsidian both find, when no other
// heading of the document reads the same and the text holds nothing Obsidian refuses in a link;
// any other block by `^` and its short id, which the block's marker carries. And back: the block a
// typed link's fragment names (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals`), what the push sends as
// `block://<id>` for a link the mirror did not write itself.
import { headingSlug, headingText, withoutMarker } from '../../dialect/index.js';
import type { BaseBlock } from '../types.js';

// The short id of each block of a document, what its block-id marker and the links to it say
// (`#^a1b2c3d4`): the first 8 letters and digits of its id, lower case; the whole id's letters and
// digits when another block of the document starts alike (the rule the asset file names follow). The
// same document gives the same short ids on every machine.
const alnum = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/** Block id → short id, for the blocks of one document. */
export function shortIdsOf(ids: Iterable<string>): Map<string, string> {
  const all = [...ids];
  const count = new Map<string, number>();
  for (const id of all) {
    const head = alnum(id).slice(0, 8);
    count.set(head, (count.get(head) ?? 0) + 1);
  }
  return new Map(
    all.map((id) => {
      const head = alnum(id).slice(0, 8);
      return [id, count.get(head)! > 1 ? alnum(id) : head];
    }),
  );
}

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

/**
 * The block of `base` a typed fragment names: `^short` by its short id; a heading by its text, else
 * by its slug (`#goals-for-2026`, as VS Code and GitHub write it), the first such heading. Undefined
 * when none does.
 */
export function blockAtFragment(base: readonly AnchorBlock[], fragment: string): string | undefined {
  const shorts = shortIdsOf(base.map((b) => b.id));
  if (fragment.startsWith('^')) {
    const short = fragment.slice(1);
    for (const [id, s] of shorts) if (s === short) return id;
    return undefined;
  }
  const headings = headingsOf(base, shorts);
  for (const [id, text] of headings) if (text === fragment) return id;
  const slug = headingSlug(fragment);
  if (slug === '') return undefined;
  for (const [id, text] of headings) if (headingSlug(text) === slug) return id;
  return undefined;
}
