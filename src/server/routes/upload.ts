// `POST /upload`: the raw body becomes an asset and a new image, video or file block (the
// Content-Type decides) at an explicit position given in the query; the asset is served at the
// signed `assetUrl` returned. The body arrives in a file (app.ts); bodies over the upload limit
// are refused with a 413 before or while they arrive (http/bodyLimits.ts).
import type { ApiRouter } from '../http/router.js';
import { validationFailed } from '../http/apiError.js';
import { UploadedFile } from '../http/uploadFile.js';
import { parseBody, queryString } from '../http/query.js';
import { newId } from '../store/openStore.js';
import { insertAssetFromFile } from '../store/assets.js';
import { insertPrepared } from '../model/blockWrites.js';
import { positionSchema, resolveTarget } from '../model/position.js';
import { withoutDefaults, type BlockData } from '../model/blockData.js';

export function registerUpload(api: ApiRouter): void {
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
      // The route takes every body as sent (rawBody), JSON and text included, into a file.
      const file = req.body instanceof UploadedFile ? req.body : undefined;
      if (!file || file.size === 0) throw validationFailed([{ message: 'The upload is empty: send the file as the raw request body.' }]);
      const contentType = String(req.headers['content-type'] ?? 'application/octet-stream');
      const media = contentType.split(';')[0]!.trim().toLowerCase();
      const type = media.startsWith('image/') ? 'image' : media.startsWith('video/') ? 'video' : 'file';
      const target = resolveTarget(ctx, position);
      const assetId = newId();
      // From the upload's file into the store a chunk at a time: the file is never whole in memory.
      insertAssetFromFile(ctx.db, { id: assetId, content_type: contentType, file_name: fileName ?? '', created_at: ctx.now }, file.path);
      // The file name is the attachment's title; image and video blocks have none.
      const data: BlockData = { body: '', url: `asset:${assetId}`, ...(type === 'file' ? { fileName: fileName ?? '' } : {}) };
      const [blockId] = insertPrepared(ctx, target.parent, target.pos, [{ type, data: withoutDefaults(type, data), children: [] }]);
      return { blockId: blockId!, assetUrl: ctx.media.sign(ctx.origin, assetId, ctx.now) };
    },
    { blockOperation: true, rawBody: true },
  );
}
