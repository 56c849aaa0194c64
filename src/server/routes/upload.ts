// `POST /upload`: the raw body becomes an asset and a new image, video or file block (the
// Content-Type decides) at an explicit position given in the query; the asset is served at the
// signed `assetUrl` returned. Bodies over the upload limit are refused with a 413.
import type { ApiRouter } from '../http/router.js';
import { ApiError, validationFailed } from '../http/apiError.js';
import { parseBody } from '../http/body.js';
import { queryString } from '../http/query.js';
import { newId } from '../ids.js';
import { insertAsset } from '../store/assets.js';
import { insertPrepared } from '../model/blockWrites.js';
import { positionSchema, resolveTarget } from '../model/position.js';
import { withoutDefaults, type BlockData } from '../model/blockData.js';

/** The default upload limit: 50 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

function megabytes(n: number): string {
  return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
}

export function registerUpload(api: ApiRouter, maxUploadBytes: () => number): void {
  api.post(
    '/upload',
    (ctx, req) => {
      const q = req.query;
      const fileName = queryString(q, 'fileName');
      if (fileName !== undefined && fileName === '')
        throw validationFailed([{ message: "'fileName' cannot be empty: omit it or give the attachment's name.", path: ['fileName'] }]);
      const position = parseBody(positionSchema, {
        position: queryString(q, 'position'),
        pageId: queryString(q, 'pageId'),
        date: queryString(q, 'date'),
        siblingId: queryString(q, 'siblingId'),
      });
      if ((position.position === 'start' || position.position === 'end') && position.pageId === undefined && position.date === undefined) {
        throw validationFailed([
          { message: `An upload needs an explicit target: with position '${position.position}' give 'pageId' or 'date'.`, path: ['pageId'] },
        ]);
      }
      // The route takes every body as bytes (rawBody), JSON and text included.
      const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
      if (!bytes || bytes.length === 0) throw validationFailed([{ message: 'The upload is empty: send the file as the raw request body.' }]);
      const limit = maxUploadBytes();
      if (bytes.length > limit) {
        throw new ApiError(413, {
          error: `The upload is ${megabytes(bytes.length)} (${bytes.length} bytes), over the limit of ${megabytes(limit)} (${limit} bytes): send a smaller file.`,
          code: 'PAYLOAD_TOO_LARGE',
        });
      }
      const contentType = String(req.headers['content-type'] ?? 'application/octet-stream');
      const media = contentType.split(';')[0]!.trim().toLowerCase();
      const type = media.startsWith('image/') ? 'image' : media.startsWith('video/') ? 'video' : 'file';
      const target = resolveTarget(ctx, position);
      const assetId = newId();
      insertAsset(ctx.db, { id: assetId, content_type: contentType, file_name: fileName ?? '', bytes, created_at: ctx.now });
      // The file name is the attachment's title; image and video blocks have none.
      const data: BlockData = { body: '', url: `asset:${assetId}`, ...(type === 'file' ? { fileName: fileName ?? '' } : {}) };
      const [blockId] = insertPrepared(ctx, target.parent, target.pos, [{ type, data: withoutDefaults(type, data), children: [] }]);
      return { blockId: blockId!, assetUrl: ctx.media.sign(ctx.origin, assetId, ctx.now) };
    },
    { blockOperation: true, rawBody: true },
  );
}
