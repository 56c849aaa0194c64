// Serves uploaded files at the signed URLs media blocks carry (outside the link path, as a
// storage service would): a wrong or expired signature is a 403.
import type { FastifyInstance } from 'fastify';
import type { ServerState } from '../ServerState.js';
import { getAsset } from '../store/assets.js';

export function registerAssets(app: FastifyInstance, state: ServerState): void {
  app.get('/assets/:assetId', async (req, reply) => {
    const { assetId } = req.params as { assetId: string };
    const q = req.query as { expires?: string; nonce?: string; sig?: string };
    if (!state.media.verify(assetId, q, state.clock.now())) {
      return reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send({ error: 'The signature of this URL is wrong or expired: read the block again for a fresh URL.', code: 'FORBIDDEN' });
    }
    const asset = getAsset(state.db, assetId);
    if (!asset || asset.bytes === null)
      return reply.code(404).type('application/json; charset=utf-8').send({ error: 'Asset not found', code: 'NOT_FOUND_ERROR' });
    return reply
      .type(asset.content_type)
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(asset.file_name)}`)
      .send(asset.bytes);
  });
}
