// Test-only routes under /__admin/ (outside the link path; only when the server was started with
// admin on): reset to the seed, snapshot, the clock, injected faults, the request log, the limits.
// They can empty the space and move its clock, so every one needs `Authorization: Bearer <token>`:
// the API key when the server has one, else the admin token made at start (ServerState.adminToken).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ServerState } from '../ServerState.js';
import type { SpaceFixture } from '../fixture/types.js';
import { loadFixture } from '../fixture/loadFixture.js';
import { snapshotSpace } from '../fixture/snapshot.js';
import { isoTime } from '../dates.js';
import { MEDIA_SECRET, writeMeta } from '../store/space.js';
import { bearer, sameSecret } from '../http/credentials.js';
import { MAX_ADMIN_BODY_BYTES } from '../http/bodyLimits.js';

const clockBody = z.object({
  set: z.union([z.string(), z.number()]).optional(),
  advanceMs: z.number().optional(),
  frozen: z.boolean().optional(),
  restore: z.boolean().optional(),
});
const faultBody = z.object({
  match: z.object({ method: z.string().optional(), path: z.string().optional() }).optional(),
  count: z.number().int().min(1).optional(),
  kind: z.enum(['429', '500', 'delay', 'reset-after-apply']),
  retryAfter: z.number().min(0).nullable().optional(),
  delayMs: z.number().min(0).optional(),
});
const limitsBody = z.object({ mode: z.enum(['spec', 'off']).optional(), scale: z.number().positive().optional() });

function bad(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(400).send({ error: message, code: 'VALIDATION_ERROR' });
}

/** Resets the space to `fixture` (the seed when omitted), with fresh limits, no faults, an empty log. */
export function resetSpace(state: ServerState, fixture?: SpaceFixture): void {
  const to = fixture ?? state.seed;
  if (to === undefined) throw new Error('This server keeps no seed to reset to: send {"fixture": …}.');
  state.space = loadFixture(state.db, to, state.clock.now());
  // The signer stays: the URLs it gave out still name the space's assets.
  writeMeta(state.db, MEDIA_SECRET, state.media.secretHex);
  state.limits.clear();
  state.faults.clear();
  state.log.clear();
  state.assetReads = [];
  state.nextPurgeAt = 0;
}

/** Registers the admin routes in a scope of their own, so the credential check guards them and nothing else. */
export function registerAdmin(app: FastifyInstance, state: ServerState, credential: string): void {
  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const token = bearer(req.headers.authorization);
      const how = state.apiKey !== undefined ? 'the API key' : 'the admin token the server printed at start';
      if (token === undefined) {
        return reply
          .code(401)
          .send({ error: `Admin routes need an Authorization header: send "Authorization: Bearer <token>" with ${how}.`, code: 'INVALID_AUTH_HEADER' });
      }
      if (!sameSecret(token, credential)) {
        return reply.code(403).send({ error: `Wrong admin credential: send ${how} as the bearer token.`, code: 'FORBIDDEN' });
      }
      return undefined;
    });
    adminRoutes(scope, state);
  });
}

function adminRoutes(app: FastifyInstance, state: ServerState): void {
  const clockState = () => ({ now: isoTime(state.clock.now()), ms: state.clock.now(), frozen: state.clock.frozen });

  app.post('/__admin/reset', { bodyLimit: MAX_ADMIN_BODY_BYTES }, async (req, reply) => {
    const body = req.body as { fixture?: SpaceFixture } | undefined;
    try {
      resetSpace(state, body?.fixture);
    } catch (e) {
      return bad(reply, (e as Error).message);
    }
    return { ok: true };
  });

  app.get('/__admin/snapshot', async () => snapshotSpace(state.db));

  app.get('/__admin/clock', async () => clockState());
  app.post('/__admin/clock', { bodyLimit: MAX_ADMIN_BODY_BYTES }, async (req, reply) => {
    const r = clockBody.safeParse(req.body ?? {});
    if (!r.success) return bad(reply, r.error.issues.map((i) => i.message).join('; '));
    const { set, advanceMs, frozen, restore } = r.data;
    if (restore) state.clock.restore();
    if (set !== undefined) {
      const t = typeof set === 'number' ? set : Date.parse(set);
      if (Number.isNaN(t)) return bad(reply, `"set" must be an ISO 8601 time or epoch milliseconds, not ${JSON.stringify(set)}.`);
      state.clock.set(t, frozen ?? false);
    } else if (frozen !== undefined) {
      state.clock.set(state.clock.now(), frozen);
    }
    if (advanceMs !== undefined) state.clock.advance(advanceMs);
    return clockState();
  });

  app.get('/__admin/faults', async () => ({ items: state.faults.list() }));
  app.post('/__admin/faults', { bodyLimit: MAX_ADMIN_BODY_BYTES }, async (req, reply) => {
    const list = Array.isArray(req.body) ? req.body : [req.body];
    for (const item of list) {
      const r = faultBody.safeParse(item);
      if (!r.success) return bad(reply, r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      try {
        state.faults.add(r.data);
      } catch (e) {
        return bad(reply, (e as Error).message);
      }
    }
    return { items: state.faults.list() };
  });
  app.delete('/__admin/faults', async () => {
    state.faults.clear();
    return { items: [] };
  });

  app.get('/__admin/requests', async () => ({ items: state.log.list() }));
  app.delete('/__admin/requests', async () => {
    state.log.clear();
    return { items: [] };
  });

  // Downloads of assets at their signed URLs: not API requests, so not in the request log.
  app.get('/__admin/asset-reads', async () => ({ items: state.assetReads }));
  app.delete('/__admin/asset-reads', async () => {
    state.assetReads = [];
    return { items: [] };
  });

  app.get('/__admin/limits', async () => state.limits.settings);
  app.post('/__admin/limits', { bodyLimit: MAX_ADMIN_BODY_BYTES }, async (req, reply) => {
    const r = limitsBody.safeParse(req.body ?? {});
    if (!r.success) return bad(reply, r.error.issues.map((i) => i.message).join('; '));
    state.limits.configure({ mode: r.data.mode ?? state.limits.settings.mode, scale: r.data.scale ?? state.limits.settings.scale });
    return state.limits.settings;
  });
}
