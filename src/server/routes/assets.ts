// Serves uploaded files at the signed URLs media blocks carry (outside the link path, as a
// storage service would): a wrong or expired signature is a 403. Not API requests: they are kept
// out of the request log and the limits, and counted on their own (`GET /__admin/asset-reads`);
// a fault armed with a path matching `/assets/<id>` slows or fails them.
import type { FastifyInstance } from 'fastify';
import type { ServerState } from '../ServerState.js';
import { Readable } from 'node:stream';
import { assetChunk, getAsset } from '../store/assets.js';

/** The asset's bytes as a stream, one stored chunk per read, so a large file is never whole in memory. */
function chunksOf(state: ServerState, assetId: string): Readable {
  let seq = 0;
  return new Readable({
    read() {
      // One query per chunk: an open statement iterator would lock the connection between reads.
      this.push(assetChunk(state.db, assetId, seq++) ?? null);
    },
  });
}

export function registerAssets(app: FastifyInstance, state: ServerState): void {
  app.get('/assets/:assetId', async (req, reply) => {
    const { assetId } = req.params as { assetId: string };
    const q = req.query as { expires?: string; nonce?: string; sig?: string };
    const answer = (status: number) => state.assetReads.push({ t: state.clock.now(), assetId, status });
    const fault = state.faults.take('GET', `/assets/${assetId}`, { explicit: true });
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000));
    if (fault?.kind === '500' || fault?.kind === '429') {
      answer(Number(fault.kind));
      return reply
        .code(Number(fault.kind))
        .type('application/json; charset=utf-8')
        .send({
          error: fault.kind === '500' ? 'Internal server error' : 'Too many requests',
          code: fault.kind === '500' ? 'INTERNAL_ERROR' : 'RATE_LIMIT_ERROR',
        });
    }
    if (fault?.kind === 'reset-after-apply') {
      answer(0);
      reply.hijack();
      req.raw.socket.destroy();
      return reply;
    }
    if (!state.media.verify(assetId, q, state.clock.now())) {
      answer(403);
      return reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send({ error: 'The signature of this URL is wrong or expired: read the block again for a fresh URL.', code: 'FORBIDDEN' });
    }
    const asset = getAsset(state.db, assetId);
    if (!asset || asset.size === null) {
      answer(404);
      return reply.code(404).type('application/json; charset=utf-8').send({ error: 'Asset not found', code: 'NOT_FOUND_ERROR' });
    }
    answer(200);
    return reply
      .type(asset.content_type)
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(asset.file_name)}`)
      .header('content-length', String(asset.size))
      .send(chunksOf(state, assetId));
  });
}
