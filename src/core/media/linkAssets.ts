// Whiteboards and media (image, video, file and drawing blocks) show in their document's file as relative links
// to files beside the document, `![Diagram](<Doc.assets/diagram-1a2b3c4d.png>)`, where the
// service's markdown has a signed URL. Names come from the block's alt text (or file name) and id, so
// the same space gives the same names on every machine; the link follows the document's file name.
// A whiteboard always links its scene file; a media block links its asset only once the asset was
// downloaded for the URL the service gives now (`MediaLink`), else it keeps the signed URL.
import { markdownEquals, typesWhere, type Block } from '../../dialect/index.js';
import { ASSETS_SUFFIX, collisionKey, dirOfPath, fileStem, stemOfPath } from '../files/fileName.js';
import { idSuffix } from '../pull/layout.js';
import { MEDIA_TYPES, sameContent } from '../merge/blockContent.js';
import type { BaseBlock } from '../types.js';

export const SCENE_EXT = '.excalidraw';
/** The link of a block's markdown: `![alt](dest)` or `[text](dest)`, the destination bare or in angle brackets. */
const LINK = /(!?\[[^\]]*\]\()(<[^<>\n]*>|[^()\s]*)(\))/;
const PICTURE = /!\[([^\]]*)\]\([^)]*\)/;
/** Block types whose asset the pull downloads beside the document. */
export const DOWNLOADED_TYPES: ReadonlySet<string> = typesWhere((t) => t.downloaded);

/** A downloaded asset of a media block: the URL it came from (signature removed) and its file name in the assets folder. */
export interface MediaLink {
  url: string;
  name: string;
}

/** `Roadmap.assets` for `Projects/Roadmap.md`: the folder (beside the document) that holds its assets. */
export const assetsDirName = (docPath: string): string => `${stemOfPath(docPath)}${ASSETS_SUFFIX}`;

/** The file of an asset named `name` of the document at `docPath`, relative to the mirror root. */
export function assetFileOf(docPath: string, name: string): string {
  const dir = dirOfPath(docPath);
  return `${dir === '' ? '' : `${dir}/`}${assetsDirName(docPath)}/${name}`;
}

/** A URL without its query and fragment: what stays of a signed URL when it is signed anew. */
export const unsignedUrl = (url: string): string => url.replace(/[?#].*$/s, '');

function altOf(b: Block): string {
  const alt = b.altText ?? PICTURE.exec(b.markdown ?? '')?.[1] ?? '';
  return alt.trim() === '' ? 'Whiteboard' : alt;
}

function slug(text: string, fallback: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s === '' ? fallback : s;
}

/** `<slug>-<short id><ext>`, or with the whole id when the short name is taken (by collision key). */
function uniqueName(text: string, fallback: string, id: string, ext: string, taken: ReadonlySet<string>): string {
  const name = `${slug(text, fallback)}-${idSuffix(id)}${ext}`;
  return taken.has(collisionKey(name)) ? `${slug(text, fallback)}-${fileStem(id)}${ext}` : name;
}

/** The link text of a path: in angle brackets when it holds spaces or parentheses (CommonMark). */
const destination = (p: string) => (/[\s()<>]/.test(p) ? `<${p}>` : p);

/** The destination of the first link of a block's markdown (angle brackets removed); null when it has none. */
export function destinationOf(markdown: string): string | null {
  const m = LINK.exec(markdown);
  if (!m) return null;
  const d = m[2]!;
  return d.startsWith('<') ? d.slice(1, -1) : d;
}

/** The markdown with the destination of its first link replaced by `target` (a URL or a relative path). */
export function withDestination(markdown: string, target: string): string {
  return markdown.replace(LINK, (_m, open: string, _d: string, close: string) => `${open}${destination(target)}${close}`);
}

/** The link of an asset named `name` as the document at `docPath` writes it: relative to the document. */
export const assetLinkOf = (docPath: string, name: string): string => `${assetsDirName(docPath)}/${name}`;

/**
 * The file name a downloaded asset gets: from the file block's name (or the image's alt text, or its
 * type), the block id and the extension; `taken`: the names of the document's other assets.
 */
export function mediaName(b: { id: string; type: string; markdown?: string }, ext: string, taken: ReadonlySet<string> = new Set()): string {
  const text = /^!?\[([^\]]*)\]/.exec(b.markdown ?? '')?.[1] ?? '';
  // The service's default alt text (`![Image](…)`, on videos too) says nothing: the type does.
  const stem = b.type === 'file' ? text.replace(/\.[A-Za-z0-9]{1,8}$/, '') : /^(image|video)?$/i.test(text.trim()) ? b.type : text;
  return uniqueName(stem, b.type, b.id, ext, taken);
}

/**
 * The document's blocks with each whiteboard linking its scene file and each media block whose asset
 * was downloaded (`media`, by block id) linking its file (`docPath`: the document's file).
 */
export function linkAssets(root: Block, docPath: string, media: (id: string) => MediaLink | undefined = () => undefined): Block {
  const taken = new Set<string>();
  const visit = (b: Block): Block => {
    let out = b;
    if (b.type === 'whiteboard') {
      const alt = altOf(b);
      const name = uniqueName(alt, 'whiteboard', b.id, SCENE_EXT, taken);
      taken.add(collisionKey(name));
      const link = `![${alt}](${destination(assetLinkOf(docPath, name))})`;
      const md = b.markdown ?? '';
      out = { ...b, markdown: PICTURE.test(md) ? md.replace(PICTURE, () => link) : link };
    } else if (DOWNLOADED_TYPES.has(b.type) && b.markdown !== undefined) {
      const rec = media(b.id);
      const url = destinationOf(b.markdown);
      if (rec && url !== null && unsignedUrl(url) === rec.url) out = { ...b, markdown: withDestination(b.markdown, assetLinkOf(docPath, rec.name)) };
    }
    if (b.content && b.content.length > 0) {
      const content = b.content.map(visit);
      if (content.some((c, i) => c !== b.content![i])) out = { ...out, content };
    }
    return out;
  };
  return visit(root);
}

/**
 * The markdown of a media block as the service must be sent it: a link to its downloaded asset
 * `name` (as `linkAssets` wrote it, under the document's old or new name) back to the service's URL
 * `signedUrl`; any other markdown as it is.
 */
export function unlinkAsset(markdown: string, name: string, signedUrl: string): string {
  const dest = destinationOf(markdown);
  return dest !== null && /^[^/]*\.assets\/[^/]+$/.test(dest) && dest.endsWith(`.assets/${name}`) ? withDestination(markdown, signedUrl) : markdown;
}

/**
 * A block's markdown whose link points into the assets folder of the document at `from`, pointing
 * into that of the same document at `to` (its file renamed); any other markdown as it is.
 */
export function relinkAsset(markdown: string, from: string, to: string): string {
  const dest = destinationOf(markdown);
  const prefix = `${assetsDirName(from)}/`;
  if (dest === null || !dest.startsWith(prefix) || dest.slice(prefix.length).includes('/')) return markdown;
  return withDestination(markdown, assetLinkOf(to, dest.slice(prefix.length)));
}

/** The scene file a whiteboard block's markdown links to, relative to the mirror root; null when it links none. */
export function sceneFileOf(markdown: string, docPath: string): string | null {
  const target = PICTURE.test(markdown) ? destinationOf(markdown) : null;
  if (!target || !target.endsWith(SCENE_EXT) || target.includes('..') || target.startsWith('/')) return null;
  const dir = dirOfPath(docPath);
  return dir === '' ? target : `${dir}/${target}`;
}

// Media URLs are signed anew on every read; a changed signature is not an edit. A block whose
// markdown differs from its base only there keeps the base's markdown, so its bytes in the file
// (and its base) stay as they were.

export function keepSignedUrls(root: Block, base: readonly BaseBlock[]): Block {
  if (base.length === 0) return root;
  const byId = new Map(base.map((b) => [b.id, b]));
  const visit = (b: Block): Block => {
    let out = b;
    const old = byId.get(b.id);
    if (
      old &&
      MEDIA_TYPES.has(b.type) &&
      b.markdown !== undefined &&
      b.markdown !== old.markdown &&
      old.type === b.type &&
      sameContent(b.type, old.markdown, b.markdown, markdownEquals)
    ) {
      out = { ...b, markdown: old.markdown };
    }
    if (b.content && b.content.length > 0) {
      const content = b.content.map(visit);
      if (content.some((c, i) => c !== b.content![i])) out = { ...out, content };
    }
    return out;
  };
  return visit(root);
}
