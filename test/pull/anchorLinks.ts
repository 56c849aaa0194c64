// The checks' own reading of links to blocks inside documents, so a file and the space compare as one
// link: a link to an anchor in a file (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals%20for%202026`) is
// taken as the space's `block://<block id>`, the block found in the space itself (the block whose id
// gives that short id, the heading whose text it is), and the marker ` ^…` at the end of a block is
// left out. Written apart from the product's code on purpose: a mistake there is not repeated here.
import path from 'node:path';
import type { Block } from '../../src/dialect/index.js';

export interface SpaceBlocks {
  /** The document whose file is `path` (relative to the mirror root). */
  idOf(path: string): string | undefined;
  /** The blocks of a document, nested ones too. */
  blocksOf(docId: string): ReadonlyArray<{ id: string; markdown?: string }> | undefined;
}

/** The blocks of each document as `GET /blocks` gave them, and their files: what `asBlockLinks` reads. */
export function spaceBlocks(pathById: ReadonlyMap<string, string>, trees: ReadonlyMap<string, Block>): SpaceBlocks {
  const byPath = new Map([...pathById].map(([id, p]) => [p, id]));
  const flat = (b: Block): Array<{ id: string; markdown?: string }> => (b.content ?? []).flatMap((c) => [c, ...flat(c)]);
  return { idOf: (p) => byPath.get(p), blocksOf: (id) => (trees.has(id) ? flat(trees.get(id)!) : undefined) };
}

const alnum = (id: string) => id.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
const MARKER = /[ \t]\^[A-Za-z0-9-]+(?=(?:<\/caption>)?(?:<\/callout>)?[ \t]*$)/;
const headingOf = (markdown: string) => {
  const m = /^\s*(?:<callout>)?#{1,6}[ \t]+(.*?)(?:<\/callout>)?\s*$/.exec(markdown.replace(MARKER, ''));
  return m
    ? m[1]!
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[*_`]|==|~~/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : undefined;
};
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');

/** The block of a document a fragment names: `^short` by its id, else a heading by its text or slug. */
function blockNamed(blocks: ReadonlyArray<{ id: string; markdown?: string }>, fragment: string): string | undefined {
  if (fragment.startsWith('^')) {
    const short = fragment.slice(1);
    return blocks.find((b) => alnum(b.id) === short || (alnum(b.id).slice(0, 8) === short && short.length === 8))?.id;
  }
  let text: string;
  try {
    text = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  const headings = blocks.flatMap((b) => {
    const h = headingOf(b.markdown ?? '');
    return h === undefined ? [] : [{ id: b.id, h }];
  });
  return (headings.find((x) => x.h === text) ?? headings.find((x) => slug(x.h) === slug(text)))?.id;
}

/** `markdown` of a block of the file `from` as the checks compare it: links to anchors as `block://<id>`, no trailing marker. */
export function asBlockLinks(markdown: string, from: string, space: SpaceBlocks): string {
  return markdown.replace(MARKER, '').replace(/\]\((<[^<>\n]*>|[^\s()<>]+)((?:[ \t]+"[^"\n]*")?\))/g, (whole, dest: string, rest: string) => {
    const d = dest.startsWith('<') ? dest.slice(1, -1) : dest;
    const hash = d.lastIndexOf('#');
    if (hash < 0 || /^[a-z]+:/i.test(d)) return whole;
    let file: string;
    try {
      file = decodeURIComponent(d.slice(0, hash));
    } catch {
      return whole;
    }
    if (!file.endsWith('.md')) return whole;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), file));
    const doc = space.idOf(target);
    const blocks = doc === undefined ? undefined : space.blocksOf(doc);
    const block = blocks && blockNamed(blocks, d.slice(hash + 1));
    return block === undefined ? whole : `](block://${block}${rest}`;
  });
}
