// A stored block → the JSON the service sends, keys in the live order, default-valued keys omitted,
// media URLs freshly signed, `content` only where children are expanded (a preview where a read
// cut them), `metadata` on request.
import type { Block, BlockMetadata } from '../../dialect/types.js';
import type { RequestContext } from '../context.js';
import { commentsOf, type BlockRow } from '../store/blocks.js';
import { DATA_KEYS, parseData } from './blockData.js';
import { isoTime } from '../dates.js';

const PAGE_LIKE = (type: string, textStyle: unknown) => type === 'page' || (type === 'text' && (textStyle === 'card' || textStyle === 'page'));

export interface BlockJsonOptions {
  /** The expanded children; `undefined` omits the `content` key. */
  content?: Block[];
  /** Where a read cut the children: a preview of them (model/previews.ts), in the place of `content`. */
  preview?: { contentPreviewMd: string } | { itemsPreviewMd: string };
  metadata?: boolean;
}

export function blockJson(ctx: RequestContext, row: BlockRow, opts: BlockJsonOptions = {}): Block {
  const data = parseData(row.data);
  const type = row.type;
  // One signature per asset per read, shared by the url field and the markdown.
  const signed = new Map<string, string>();
  const sign = (text: string) =>
    text.replace(/asset:([A-Za-z0-9-]+)/g, (_m, id: string) => {
      let url = signed.get(id);
      if (url === undefined) {
        url = ctx.media.sign(ctx.origin, id, ctx.now);
        signed.set(id, url);
      }
      return url;
    });
  const fields: Record<string, unknown> = {};
  for (const k of DATA_KEYS) {
    const v = data[k];
    if (v !== undefined) fields[k] = k === 'url' && typeof v === 'string' && v.startsWith('asset:') ? sign(v) : v;
  }
  let markdown = row.markdown.includes('asset:') ? sign(row.markdown) : row.markdown;
  if (PAGE_LIKE(type, data.textStyle)) {
    // Pages carry their style (a plain page: "page") and no title key: the title is the markdown.
    fields.textStyle ??= 'page';
    delete fields.title;
  } else if (type === 'collectionItem') {
    fields.title = data.body ?? '';
  } else if (type === 'collection') {
    delete fields.title;
  } else if (type === 'code') {
    fields.rawCode ??= data.body ?? '';
  } else if (type === 'line') {
    fields.lineStyle ??= 'regular';
  } else if (type === 'whiteboard') {
    // A whiteboard always has a link of its own; one without a picture gets its board's address.
    fields.url ??= `${ctx.origin}/whiteboards/${encodeURIComponent(row.id)}`;
    const picture = `![${data.altText || 'Whiteboard'}](${fields.url as string})`;
    markdown = /!\[[^\]]*\]\([^)]*\)/.test(markdown) ? markdown.replace(/!\[[^\]]*\]\([^)]*\)/, () => picture) : picture;
  }
  const out: Record<string, unknown> = { id: row.id, type };
  // `id`, `type`, the type's own fields in the order the live service sends them (BLOCK_FIELDS), then `markdown`, `content`, `metadata`.
  for (const k of DATA_KEYS) if (fields[k] !== undefined) out[k] = fields[k];
  // Fields the contract does not name (fixtures standing for a service that added some) follow.
  for (const [k, v] of Object.entries(data)) if (k !== 'body' && !(DATA_KEYS as readonly string[]).includes(k)) out[k] = v;
  out.markdown = markdown;
  if (opts.content !== undefined) out.content = opts.content;
  if (opts.preview !== undefined) Object.assign(out, opts.preview);
  if (opts.metadata) out.metadata = metadataOf(ctx, row);
  return out as unknown as Block;
}

function metadataOf(ctx: RequestContext, row: BlockRow): BlockMetadata {
  return {
    createdAt: isoTime(row.created_at),
    lastModifiedAt: isoTime(row.modified_at),
    createdBy: row.created_by,
    lastModifiedBy: row.modified_by,
    comments: commentsOf(ctx.db, row.id).map((c) => ({ id: c.id, content: c.content, createdAt: isoTime(c.created_at), createdBy: c.created_by })),
    clickableLink: clickableLink(ctx.space.id, row.doc_id, row.id),
  };
}

// Clickable links into the client app: `{app_scheme}://open?spaceId=<space>&documentId=<doc>`.
// The scheme is the one the service's own clients and the desktop app expect (docs/server.md,
// "Where the server differs from the live service": this value is kept, not ours).
export const APP_SCHEME = 'craftdocs';

export function clickableLink(spaceId: string, documentId: string, blockId?: string): string {
  const base = `${APP_SCHEME}://open?spaceId=${encodeURIComponent(spaceId)}&documentId=${encodeURIComponent(documentId)}`;
  return blockId === undefined || blockId === documentId ? base : `${base}&blockId=${encodeURIComponent(blockId)}`;
}

/** `urlTemplates.app`: the space filled in, one `{blockId}` placeholder (a document's id is its root block's). */
export function appUrlTemplate(spaceId: string): string {
  return `${APP_SCHEME}://open?spaceId=${encodeURIComponent(spaceId)}&blockId={blockId}`;
}
