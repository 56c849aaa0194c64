// The HTTP face of the server: the link path, the API key, the rate limits, injected faults,
// one transaction per request, the service's error shapes, and the admin routes for tests.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, validationFailed, type ApiErrorBody } from './http/apiError.js';
import { RawBody, type ApiHandler, type ApiRouter, type RouteOptions } from './http/router.js';
import type { Query } from './http/query.js';
import { createContext } from './context.js';
import type { ServerState } from './ServerState.js';
import { purgeExpiredTrash } from './store/documents.js';
import { registerConnection } from './routes/connection.js';
import { registerFolders } from './routes/folders.js';
import { registerDocuments } from './routes/documents.js';
import { registerBlocks } from './routes/blocks.js';
import { registerTasks } from './routes/tasks.js';
import { registerCollections } from './routes/collections.js';
import { registerCollectionViews } from './routes/collectionViews.js';
import { registerComments } from './routes/comments.js';
import { registerReminders } from './routes/reminders.js';
import { registerUpload } from './routes/upload.js';
import { registerWhiteboards } from './routes/whiteboards.js';
import { registerAssets } from './routes/assets.js';
import { registerAdmin } from './routes/admin.js';
import { isSpacesyncError } from '../errors.js';
import { bearer, sameSecret } from './http/credentials.js';
import { MAX_ADMIN_BODY_BYTES, MAX_JSON_BODY_BYTES, bodyTooLarge, checkBlockDepth, checkJsonDepth, serverBusy, type BodyKind } from './http/bodyLimits.js';
import { receiveToFile, UploadTooLarge, type UploadedFile } from './http/uploadFile.js';

const API_PREFIX = '/api/v1';
const LINK_URL = /^\/links\/([^/?#]*)([^?#]*)/;
const PURGE_EVERY_MS = 60_000;

/** What the server keeps about one request to the link, from its first hook to its log line. */
interface ApiCall {
  /** The path after `/api/v1` (`/blocks`); `undefined` when the URL is under the link but not the API. */
  path: string | undefined;
  query: Record<string, string | string[]>;
  /** The request passed the space's request allowance (its answer carries X-RateLimit-*). */
  counted: boolean;
  blockOperation: boolean;
  blocksCharged: number;
  resetAfterApply: boolean;
  logged: boolean;
  /** Server clock when it arrived. */
  receivedAt: number;
}

const calls = new WeakMap<FastifyRequest, ApiCall>();
/** Uploads received into files, removed once their answer is sent. */
const uploads = new WeakMap<FastifyRequest, UploadedFile>();

function sendError(reply: FastifyReply, e: ApiError): FastifyReply {
  return reply.code(e.status).headers(e.headers).type('application/json; charset=utf-8').send(e.body);
}

/** `adminCredential`: serve the admin routes, guarded by this bearer token. */
export function buildApp(state: ServerState, options: { adminCredential?: string | undefined }): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: MAX_JSON_BODY_BYTES, forceCloseConnections: true });
  // Bodies sent without a JSON content type arrive as bytes; routes that want JSON read them as JSON.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  admitBodies(app, state);
  app.addHook('onRequest', (req, reply) => admitCall(state, req, reply));
  reportCalls(app, state);
  answerErrors(app, state);
  const api = apiRouter(app, state);
  registerConnection(api);
  registerFolders(api);
  registerDocuments(api);
  registerBlocks(api);
  registerTasks(api);
  registerCollections(api);
  registerCollectionViews(api);
  registerComments(api);
  registerReminders(api, () => state.soleParticipant);
  registerUpload(api);
  registerWhiteboards(api);
  registerAssets(app, state);
  if (options.adminCredential !== undefined) registerAdmin(app, state, options.adminCredential);
  return app;
}

/**
 * Every body, before a byte of it is read: over its route's limit by its Content-Length, a 413;
 * no room left in the budget of bodies in flight, a 503. Routes refuse unauthorised requests in
 * onRequest, before this: their bodies are never read.
 */
function admitBodies(app: FastifyInstance, state: ServerState): void {
  app.addHook('preParsing', async (req, reply, payload) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return payload;
    const kind = bodyKindOf(state, req);
    const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (declared !== undefined && declared > kind.limit) throw bodyTooLarge(kind, declared);
    if (declared === 0) return payload;
    // A body of unknown length may be as large as its limit.
    const reserved = declared ?? kind.limit;
    if (!state.bodies.admit(reserved)) throw serverBusy(reserved, state.bodies.inFlight, state.bodies.capacity);
    reply.raw.once('close', () => {
      state.bodies.release(reserved);
      uploads.get(req)?.remove();
    });
    return payload;
  });
}

/** The limit and the wording of the body a request may send. */
function bodyKindOf(state: ServerState, req: FastifyRequest): BodyKind {
  if (req.url.startsWith('/__admin/')) return { what: 'The admin request body', limit: MAX_ADMIN_BODY_BYTES, advice: 'reset to a smaller space.' };
  const call = calls.get(req);
  if (call?.path === '/upload' && req.method === 'POST') {
    return { what: 'The upload', limit: state.maxUploadBytes, advice: 'send a smaller file.' };
  }
  return { what: 'The request body', limit: MAX_JSON_BODY_BYTES, advice: 'send fewer or smaller blocks per request.' };
}

/** A request to the link, in order: the address's allowance, the link, the API key, an armed fault, the space's allowance. */
async function admitCall(state: ServerState, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const m = LINK_URL.exec(req.url);
  if (!m) return;
  const rest = m[2] ?? '';
  const call: ApiCall = {
    path: rest === API_PREFIX || rest.startsWith(`${API_PREFIX}/`) ? rest.slice(API_PREFIX.length) || '/' : undefined,
    query: (req.query ?? {}) as Record<string, string | string[]>,
    counted: false,
    blockOperation: false,
    blocksCharged: 0,
    resetAfterApply: false,
    logged: false,
    receivedAt: state.clock.now(),
  };
  calls.set(req, call);
  const now = state.clock.now();
  const limited = state.limits.takeAddress(req.ip, now);
  if (limited) return sendError(reply, limited);
  // The live form: no NOT_FOUND_ERROR, which is how clients tell a dead link from missing content.
  // Secrets are compared in constant time (http/credentials.ts): `!==` would tell by its timing how much of a guess was right.
  if (!sameSecret(m[1]!, state.linkId)) return sendError(reply, new ApiError(404, { error: 'Not found', code: '' }));
  if (state.apiKey !== undefined) {
    const key = bearer(req.headers.authorization);
    if (key === undefined) return sendError(reply, new ApiError(401, { error: 'Invalid Authorization header', code: 'INVALID_AUTH_HEADER' }));
    if (!sameSecret(key, state.apiKey)) return sendError(reply, new ApiError(403, { error: 'Invalid API key', code: 'FORBIDDEN' }));
  }
  const fault = state.faults.take(req.method, call.path ?? rest);
  if (fault?.kind === '429') {
    const retryAfter: Record<string, string> = fault.retryAfter === null ? {} : { 'retry-after': String(fault.retryAfter ?? 1) };
    return sendError(reply, new ApiError(429, { error: 'Too many requests: wait for Retry-After seconds, then retry.', code: 'RATE_LIMIT_ERROR' }, retryAfter));
  }
  if (fault?.kind === '500') return sendError(reply, new ApiError(500, { error: 'Internal server error', code: 'INTERNAL_ERROR' }));
  if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000));
  if (fault?.kind === 'reset-after-apply') call.resetAfterApply = true;
  const spaceLimited = state.limits.takeSpace(state.clock.now());
  if (spaceLimited) return sendError(reply, spaceLimited);
  call.counted = true;
  return undefined;
}

/** Answers to counted requests carry the allowances left; every request to the link is logged once. */
function reportCalls(app: FastifyInstance, state: ServerState): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const call = calls.get(req);
    if (call?.counted) {
      const now = state.clock.now();
      reply.headers(state.limits.requestHeaders(now));
      if (call.blockOperation) reply.headers(state.limits.blockHeaders(now));
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const call = calls.get(req);
    if (!call || call.logged) return;
    call.logged = true;
    logCall(state, req, call, reply.statusCode);
  });
}

function logCall(state: ServerState, req: FastifyRequest, call: ApiCall, status: number): void {
  const path = call.path ?? '(outside the API)';
  state.log.add({
    t: state.clock.now(),
    receivedAt: call.receivedAt,
    method: req.method,
    path,
    query: call.query,
    status,
    blocksCharged: call.blocksCharged,
  });
  state.logger?.info({ method: req.method, path, status, blocks: call.blocksCharged }, 'request');
}

/** The page an unknown route answers with: HTML, as the live service's web framework sends it. */
function html404(method: string, path: string): string {
  const esc = path.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Error</title>
</head>
<body>
<pre>Cannot ${method} ${esc}</pre>
</body>
</html>
`;
}

/** Unknown routes answer the service's HTML 404; errors answer in the service's shapes, an unexpected one as a logged 500. */
function answerErrors(app: FastifyInstance, state: ServerState): void {
  app.setNotFoundHandler((req, reply) => {
    const call = calls.get(req);
    const shown = call ? (call.path ?? '/') : req.url.split('?')[0]!;
    void reply.code(404).type('text/html; charset=utf-8').send(html404(req.method, shown));
  });
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (isSpacesyncError(err, 'dialect_input')) return sendError(reply, validationFailed([{ message: err.message }]));
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (err instanceof UploadTooLarge || e.statusCode === 413) return sendError(reply, bodyTooLarge(bodyKindOf(state, req)));
    if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
      return sendError(
        reply,
        validationFailed([{ message: e.code?.startsWith('FST_ERR_CTP') ? 'The request body is not valid JSON.' : (e.message ?? 'Bad request') }]),
      );
    }
    state.logger?.error({ err, path: calls.get(req)?.path }, 'request failed');
    return sendError(reply, new ApiError(500, { error: 'Internal server error', code: 'INTERNAL_ERROR' } satisfies ApiErrorBody));
  });
}

/** The routes' registrar: each route under the link's API path, its body read as it asks. */
function apiRouter(app: FastifyInstance, state: ServerState): ApiRouter {
  const route =
    (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
    (path: string, handler: ApiHandler, opts: RouteOptions = {}) => {
      const mount = (target: FastifyInstance) =>
        target.route({ method, url: `/links/:linkId${API_PREFIX}${path}`, handler: (req, reply) => runCall(state, req, reply, handler, opts) });
      if (opts.rawBody) {
        // Raw bodies (uploads) stay the bytes sent, whatever their type: no JSON or text parsing.
        // They go to a file as they arrive (never whole in memory), within the upload limit.
        void app.register(async (raw) => {
          raw.removeAllContentTypeParsers();
          raw.addContentTypeParser('*', (req, payload, done) => {
            receiveToFile(payload, state.uploadDir, state.maxUploadBytes).then(
              (file) => {
                uploads.set(req, file);
                done(null, file);
              },
              (e: Error) => done(e),
            );
          });
          mount(raw);
        });
      } else {
        mount(app);
      }
    };
  return { get: route('GET'), post: route('POST'), put: route('PUT'), delete: route('DELETE') };
}

/** One API request: expired trash purged when due, the body checked, the handler run in one transaction, its blocks charged. */
async function runCall(state: ServerState, req: FastifyRequest, reply: FastifyReply, handler: ApiHandler, opts: RouteOptions): Promise<FastifyReply> {
  const call = calls.get(req)!;
  call.blockOperation = opts.blockOperation === true;
  const now = state.clock.now();
  if (now >= state.nextPurgeAt) {
    state.db.transaction(() => purgeExpiredTrash(state.db, now))();
    state.nextPurgeAt = now + PURGE_EVERY_MS;
  }
  let body: unknown = req.body;
  if ((Buffer.isBuffer(body) || typeof body === 'string') && !opts.rawBody) body = readJson(body);
  if (opts.nestedBlocks) checkBlockDepth(body);
  if (!opts.rawBody) checkJsonDepth(body);
  // Never the request's Host header: a client could make the server sign URLs to another host.
  const ctx = createContext({ db: state.db, now, space: state.space, origin: state.origin, media: state.media, limits: state.limits });
  const result = state.db.transaction(() =>
    handler(ctx, { query: req.query as Query, body, headers: req.headers, params: req.params as Record<string, string> }),
  )();
  state.limits.chargeBlocks(now, ctx.blocksCharged);
  call.blocksCharged = ctx.blocksCharged;
  if (call.resetAfterApply) {
    // The change is committed; the client never hears so.
    call.logged = true;
    logCall(state, req, call, 0);
    reply.hijack();
    req.raw.socket.destroy();
    return reply;
  }
  if (result instanceof RawBody) return reply.type(result.contentType).send(result.body);
  return reply.type('application/json; charset=utf-8').send(result);
}

/** A body sent without a JSON content type, read as JSON all the same. */
function readJson(body: Buffer | string): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw validationFailed([{ message: 'The request body is not valid JSON.' }]);
  }
}
