// The API client of one space: every endpoint as a typed method, each request passed through the
// space's scheduler, failures turned into SpacesyncErrors that never carry the link or the key.
import { setMaxListeners } from 'node:events';
import { SpacesyncError } from '../errors.js';
import { FILE_ONLY, type Logger } from '../log.js';
import { describeLink, redactText } from '../redact.js';
import { VERSION } from '../version.js';
import { encodeQuery, type ApiCall, type CallOptions, type Parse, type Send } from './apiCall.js';
import { blocksApi } from './api/blocksApi.js';
import { collectionsApi } from './api/collectionsApi.js';
import { documentsApi } from './api/documentsApi.js';
import { foldersApi } from './api/foldersApi.js';
import { otherApi } from './api/otherApi.js';
import { tasksApi } from './api/tasksApi.js';
import type { Clock } from './clock.js';
export type { CallOptions } from './apiCall.js';
import { errorForResult, type ErrorContext } from './errorForResult.js';
import { resolveLimits, type LimitsInput, type SchedulerLimits } from './limits.js';
import { Scheduler, type AttemptOutcome } from './scheduler.js';
import type { SchedulerStats, WaitReason } from './schedulerStats.js';
import { httpTransport, TransportError, type Transport } from './transport.js';

export interface ClientOptions {
  /** The connection link, `https://<host>/links/<LINK_ID>/api/v1`: a secret. */
  link: string;
  apiKey?: string;
  /** The space's scheduler when several clients share it; one is made from `limits` otherwise. */
  scheduler?: Scheduler;
  limits?: LimitsInput | SchedulerLimits;
  clock?: Clock;
  logger?: Logger;
  /** Per request, unless a call says otherwise. */
  timeoutMs?: number;
  transport?: Transport;
  maxInFlight?: number;
  /** A stop request: waiting requests are dropped at once (`cancelled`), sent ones finish. */
  signal?: AbortSignal;
  /** Asked before every writing request is queued; what it throws is the request's error (nothing is sent). */
  beforeWrite?: () => void;
}

export interface ClientStats extends SchedulerStats {
  /** Failed calls by error code (after retries). */
  errors: Record<string, number>;
}

const LINK = /^(https?:\/\/[^/\s?#]+)((?:\/[^\s?#]*)?\/links\/([^/\s?#]+)\/api\/v1)\/?$/;

export function createClient(options: ClientOptions) {
  const m = LINK.exec(options.link.trim());
  if (!m) {
    throw new SpacesyncError(
      'config_invalid',
      `The connection link ${describeLink(options.link)} is not of the form https://<host>/links/<LINK_ID>/api/v1. Copy the link again from the app.`,
    );
  }
  const origin = m[1]!;
  const basePath = m[2]!;
  const linkId = m[3]!;
  const secrets = [options.link.trim(), linkId, ...(options.apiKey ? [options.apiKey] : [])];
  const ctx: ErrorContext = { host: new URL(origin).host, hasApiKey: options.apiKey !== undefined, secrets };
  const limits = options.limits && 'spaceRequests' in options.limits ? options.limits : resolveLimits(options.limits);
  // Every queued request listens for the stop request: thousands may wait on one signal.
  if (options.signal) setMaxListeners(0, options.signal);
  const ownsScheduler = options.scheduler === undefined;
  const scheduler =
    options.scheduler ??
    new Scheduler({
      limits,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  const ownsTransport = options.transport === undefined;
  const transport = options.transport ?? httpTransport({ maxSockets: options.maxInFlight ?? 8 });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.logger?.child({ component: 'client' });
  const errors: Record<string, number> = {};
  // Attempts in the order they went out, and the latest one the service answered with success:
  // a link cannot come back to life, so a success sent after a 404 proves the link was alive.
  let attemptSeq = 0;
  let aliveSeq = 0;
  let probe: Promise<boolean> | undefined;
  /** Set by close(): a request it cut off is no news (the caller already has its answer or error). */
  let closed = false;
  const userAgent = `spacesync/${VERSION} (node ${process.version})`;

  const sendCall = async <T>(call: ApiCall, callOptions: CallOptions | undefined, parse: Parse<T>, counted = true): Promise<T> => {
    const fail = (error: SpacesyncError): never => {
      if (counted) errors[error.code] = (errors[error.code] ?? 0) + 1;
      throw error;
    };
    if (call.method !== 'GET') options.beforeWrite?.();
    const markdown = call.accept === 'markdown';
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: markdown ? 'text/markdown' : 'application/json' };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    let body: Buffer | undefined;
    if (call.raw) {
      body = Buffer.from(call.raw.data);
      headers['content-type'] = call.raw.contentType;
    } else if (call.json !== undefined) {
      body = Buffer.from(JSON.stringify(call.json));
      headers['content-type'] = 'application/json';
    }
    const url = `${origin}${basePath}${call.path}${encodeQuery(call.query)}`;
    // Answers are parsed once: while counting their blocks for the budget, then kept for the caller.
    const parsed = new WeakMap<AttemptOutcome, unknown>();
    let lastAttempt = 0;
    const started = Date.now();
    const result = await scheduler.run({
      priority: callOptions?.priority ?? (call.method === 'GET' ? 'poll' : 'user'),
      label: call.endpoint,
      blockCost: callOptions?.blockCost ?? call.blockCost,
      idempotent: call.method !== 'POST',
      ...(options.signal ? { signal: options.signal } : {}),
      attempt: async (): Promise<AttemptOutcome> => {
        const seq = (lastAttempt = ++attemptSeq);
        try {
          const res = await transport({ method: call.method, url, headers, ...(body ? { body } : {}), timeoutMs: callOptions?.timeoutMs ?? timeoutMs });
          const outcome: AttemptOutcome = { kind: 'response', status: res.status, headers: res.headers, body: res.body };
          if (res.status === 200) aliveSeq = Math.max(aliveSeq, seq);
          if (res.status === 200 && !markdown && call.countBlocks) {
            try {
              const value = JSON.parse(res.body.toString('utf8')) as unknown;
              parsed.set(outcome, value);
              outcome.blocks = call.countBlocks(value);
            } catch {
              // Reported as a bad answer below.
            }
          }
          return outcome;
        } catch (error) {
          // A transport of unknown make may have sent the request: assume it did.
          if (error instanceof TransportError) return { kind: 'failure', reason: error.reason, sent: error.sent, error };
          return { kind: 'failure', reason: 'reset', sent: true, error };
        }
      },
    });
    const { outcome } = result;
    const ms = Date.now() - started;
    if (outcome.kind === 'response' && outcome.status === 200) {
      log?.debug({ endpoint: call.endpoint, status: 200, attempts: result.attempts, ms }, 'request done');
      try {
        const text = outcome.body.toString('utf8');
        const value = markdown ? text : parsed.has(outcome) ? parsed.get(outcome) : (JSON.parse(text) as unknown);
        return parse(value);
      } catch (e) {
        const why = e instanceof SpacesyncError ? e.message : 'not valid JSON';
        return fail(
          new SpacesyncError(
            'bad_response',
            redactText(
              `The service's answer to ${call.method} ${call.path} could not be used: ${why}. Nothing was recorded from it; check that the link points at the space service, and report it if it repeats.`,
              secrets,
            ),
            {
              details: { method: call.method, path: call.path, endpoint: call.endpoint, status: 200 },
            },
          ),
        );
      }
    }
    let error = errorForResult(call, result, ctx);
    // A link revoked mid-cycle answers 404 everywhere: "not found" must not read as "deleted".
    if (error.code === 'not_found' && !call.root && aliveSeq < lastAttempt && (await linkGone(callOptions))) {
      error = new SpacesyncError(
        'link_not_found',
        `${call.method} ${call.path} answered 404, and so did GET /connection: the connection link was deleted or revoked. Create a new connection link in the app and run \`spacesync init\` again with it.`,
        {
          details: { method: call.method, path: call.path, endpoint: call.endpoint, status: 404 },
        },
      );
    }
    // The caller reports the error in its own words: the terminal does not show it a second time.
    if (!closed)
      log?.warn(
        {
          ...FILE_ONLY,
          endpoint: call.endpoint,
          code: error.code,
          status: outcome.kind === 'response' ? outcome.status : outcome.reason,
          attempts: result.attempts,
          ms,
        },
        error.message,
      );
    return fail(error);
  };

  const send: Send = (call, callOptions, parse) => sendCall(call, callOptions, parse);

  /** Asks `GET /connection` whether the link is gone (concurrent 404s share one question). */
  const linkGone = (callOptions: CallOptions | undefined): Promise<boolean> => {
    probe ??= sendCall(
      { method: 'GET', endpoint: 'GET /connection', path: '/connection', blockCost: 0, root: true },
      { priority: callOptions?.priority ?? 'poll' },
      (v) => v,
      false,
    )
      .then(
        () => false,
        (e: unknown) => e instanceof SpacesyncError && e.code === 'link_not_found',
      )
      .finally(() => (probe = undefined));
    return probe;
  };

  return {
    ...blocksApi(send),
    ...documentsApi(send),
    ...foldersApi(send),
    ...collectionsApi(send),
    ...tasksApi(send),
    ...otherApi(send),
    scheduler,
    /** The link as it may be shown: `<host>/links/abcd…/api/v1`. */
    describeLink: () => describeLink(options.link),
    stats: (): ClientStats => ({ ...scheduler.stats(), errors: { ...errors } }),
    /** stats().waitingFor alone, cheap enough to ask after every document. */
    waitingFor: (): WaitReason | undefined => scheduler.waitingFor(),
    /** Rejects queued requests (when the client made its own scheduler) and closes idle connections. */
    close(): void {
      closed = true;
      if (ownsScheduler) scheduler.close();
      if (ownsTransport) (transport as { close?: () => void }).close?.();
    },
  };
}

export type SpaceClient = ReturnType<typeof createClient>;
