// A whiteboard block shows in its document's file as a link to its scene file beside the document,
// `![Whiteboard](<Doc.assets/whiteboard-1a2b3c4d.excalidraw>)`, where the service's markdown has the
// board's picture URL. The name comes from the block's alt text and id, so the same space gives the
// same names on every machine; the link moves with the document's file name.
import type { Block } from '../dialect/index.js';
import { collisionKey, dirOfPath, fileStem, stemOfPath } from './fileName.js';
import { idSuffix } from './layout.js';

export const SCENE_EXT = '.excalidraw';
const PICTURE = /!\[([^\]]*)\]\([^)]*\)/;

/** `Roadmap.assets` for `Projects/Roadmap.md`: the folder (beside the document) that holds its whiteboards. */
export const assetsDirName = (docPath: string): string => `${stemOfPath(docPath)}.assets`;

function altOf(b: Block): string {
  const alt = b.altText ?? PICTURE.exec(b.markdown ?? '')?.[1] ?? '';
  return alt.trim() === '' ? 'Whiteboard' : alt;
}

function slug(alt: string): string {
  const s = alt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s === '' ? 'whiteboard' : s;
}

/** The link text of a path: in angle brackets when it holds spaces or parentheses (CommonMark). */
const destination = (p: string) => (/[\s()<>]/.test(p) ? `<${p}>` : p);

/** The document's blocks with each whiteboard's markdown pointing at its scene file (`docPath`: the document's file). */
export function linkWhiteboards(root: Block, docPath: string): Block {
  const dir = assetsDirName(docPath);
  const taken = new Set<string>();
  const visit = (b: Block): Block => {
    let out = b;
    if (b.type === 'whiteboard') {
      const alt = altOf(b);
      let name = `${slug(alt)}-${idSuffix(b.id)}${SCENE_EXT}`;
      if (taken.has(collisionKey(name))) name = `${slug(alt)}-${fileStem(b.id)}${SCENE_EXT}`;
      taken.add(collisionKey(name));
      const link = `![${alt}](${destination(`${dir}/${name}`)})`;
      const md = b.markdown ?? '';
      out = { ...b, markdown: PICTURE.test(md) ? md.replace(PICTURE, () => link) : link };
    }
    if (b.content && b.content.length > 0) {
      const content = b.content.map(visit);
      if (content.some((c, i) => c !== b.content![i])) out = { ...out, content };
    }
    return out;
  };
  return visit(root);
}

/** The scene file a whiteboard block's markdown links to, relative to the mirror root; null when it links none. */
export function sceneFileOf(markdown: string, docPath: string): string | null {
  const m = /!\[[^\]]*\]\((?:<([^>]*)>|([^)\s]*))\)/.exec(markdown);
  const target = m?.[1] ?? m?.[2];
  if (!target || !target.endsWith(SCENE_EXT) || target.includes('..') || target.startsWith('/')) return null;
  const dir = dirOfPath(docPath);
  return dir === '' ? target : `${dir}/${target}`;
}
