// The block a typed link's fragment names in a document (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals`),
// read from the document's base: what the push sends as `block://<id>` for a link the mirror did not
// write itself.
import { headingSlug } from '../../dialect/index.js';
import { headingsOf, type AnchorBlock } from './anchorOf.js';
import { shortIdsOf } from './shortIdsOf.js';

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
