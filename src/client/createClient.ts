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
import { documentsApi, foldersApi } from './api/documentsApi.js';
import { otherApi, tasksApi } from './api/otherApi.js';
import type { Clock, SchedulerStats, WaitReason } from './scheduler.js';
export type { CallOptions } from './apiCall.js';
import { errorForResult, type ErrorContext } from './errorForResult.js';
import { resolveLimits, type LimitsInput, type SchedulerLimits } from './limits.js';
import { Scheduler, type AttemptOutcome } from './scheduler.js';
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
  const connection = new Connection(options, { origin: m[1]!, basePath: m[2]!, linkId: m[3]! });
  const send: Send = (call, callOptions, parse) => connection.send(call, callOptions, parse);
  const { scheduler } = connection;
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
    stats: (): ClientStats => connection.stats(),
    /** stats().waitingFor alone, cheap enough to ask after every document. */
    waitingFor: (): WaitReason | undefined => scheduler.waitingFor(),
    /** Rejects queued requests (when the client made its own scheduler) and closes idle connections. */
    close: (): void => connection.close(),
  };
}

/** A request as it goes out, every attempt alike. */
interface Request {
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The answer is markdown text, not JSON. */
  markdown: boolean;
}

/** The link's requests: each one through the scheduler, its answer parsed, its failure made a SpacesyncError. */
class Connection {
  readonly scheduler: Scheduler;
  private readonly ownsScheduler: boolean;
  private readonly transport: Transport;
  private readonly ownsTransport: boolean;
  private readonly timeoutMs: number;
  private readonly log: Logger | undefined;
  private readonly secrets: string[];
  private readonly errorContext: ErrorContext;
  private readonly errors: Record<string, number> = {};
  private readonly userAgent = `spacesync/${VERSION} (node ${process.version})`;
  // Attempts in the order they went out, and the latest one the service answered with success:
  // a link cannot come back to life, so a success sent after a 404 proves the link was alive.
  private attemptSeq = 0;
  private aliveSeq = 0;
  private probe: Promise<boolean> | undefined;
  /** Set by close(): a request it cut off is no news (the caller already has its answer or error). */
  private closed = false;

  constructor(
    private readonly options: ClientOptions,
    private readonly link: { origin: string; basePath: string; linkId: string },
  ) {
    this.secrets = [options.link.trim(), link.linkId, ...(options.apiKey ? [options.apiKey] : [])];
    this.errorContext = { host: new URL(link.origin).host, hasApiKey: options.apiKey !== undefined, secrets: this.secrets };
    const limits = options.limits && 'spaceRequests' in options.limits ? options.limits : resolveLimits(options.limits);
    // Every queued request listens for the stop request: thousands may wait on one signal.
    if (options.signal) setMaxListeners(0, options.signal);
    this.ownsScheduler = options.scheduler === undefined;
    this.scheduler =
      options.scheduler ??
      new Scheduler({
        limits,
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
    this.ownsTransport = options.transport === undefined;
    this.transport = options.transport ?? httpTransport({ maxSockets: options.maxInFlight ?? 8 });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.log = options.logger?.child({ component: 'client' });
  }

  stats(): ClientStats {
    return { ...this.scheduler.stats(), errors: { ...this.errors } };
  }

  close(): void {
    this.closed = true;
    if (this.ownsScheduler) this.scheduler.close();
    if (this.ownsTransport) (this.transport as { close?: () => void }).close?.();
  }

  /** Sends the call (retried as the scheduler decides) and parses its answer; `counted`: its failure counts in the stats. */
  async send<T>(call: ApiCall, callOptions: CallOptions | undefined, parse: Parse<T>, counted = true): Promise<T> {
    if (call.method !== 'GET') this.options.beforeWrite?.();
    const request = this.requestOf(call);
    // Answers are parsed once: while counting their blocks for the budget, then kept for the caller.
    const parsed = new WeakMap<AttemptOutcome, unknown>();
    let lastAttempt = 0;
    const started = Date.now();
    const result = await this.scheduler.run({
      priority: callOptions?.priority ?? (call.method === 'GET' ? 'poll' : 'user'),
      label: call.endpoint,
      blockCost: callOptions?.blockCost ?? call.blockCost,
      idempotent: call.method !== 'POST',
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      attempt: () => this.attempt(call, request, callOptions, parsed, (seq) => (lastAttempt = seq)),
    });
    const { outcome } = result;
    const ms = Date.now() - started;
    let error: SpacesyncError;
    if (outcome.kind === 'response' && outcome.status === 200) {
      this.log?.debug({ endpoint: call.endpoint, status: 200, attempts: result.attempts, ms }, 'request done');
      const answer = this.answerOf(call, request, outcome.body, parsed.has(outcome) ? { value: parsed.get(outcome) } : undefined, parse);
      if (answer.ok) return answer.value;
      error = answer.error;
    } else {
      error = await this.failureOf(call, callOptions, result, lastAttempt);
      // The caller reports the error in its own words: the terminal does not show it a second time.
      if (!this.closed) {
        const status = outcome.kind === 'response' ? outcome.status : outcome.reason;
        this.log?.warn({ ...FILE_ONLY, endpoint: call.endpoint, code: error.code, status, attempts: result.attempts, ms }, error.message);
      }
    }
    if (counted) this.errors[error.code] = (this.errors[error.code] ?? 0) + 1;
    throw error;
  }

  private requestOf(call: ApiCall): Request {
    const markdown = call.accept === 'markdown';
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: markdown ? 'text/markdown' : 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let body: Buffer | undefined;
    if (call.raw) {
      body = Buffer.from(call.raw.data);
      headers['content-type'] = call.raw.contentType;
    } else if (call.json !== undefined) {
      body = Buffer.from(JSON.stringify(call.json));
      headers['content-type'] = 'application/json';
    }
    const url = `${this.link.origin}${this.link.basePath}${call.path}${encodeQuery(call.query)}`;
    return { url, headers, ...(body ? { body } : {}), markdown };
  }

  /** One attempt of the request; a 200's JSON is parsed at once when the call counts its blocks (`parsed` keeps it). */
  private async attempt(
    call: ApiCall,
    request: Request,
    callOptions: CallOptions | undefined,
    parsed: WeakMap<AttemptOutcome, unknown>,
    started: (seq: number) => void,
  ): Promise<AttemptOutcome> {
    const seq = ++this.attemptSeq;
    started(seq);
    try {
      const { url, headers, body } = request;
      const res = await this.transport({ method: call.method, url, headers, ...(body ? { body } : {}), timeoutMs: callOptions?.timeoutMs ?? this.timeoutMs });
      const outcome: AttemptOutcome = { kind: 'response', status: res.status, headers: res.headers, body: res.body };
      if (res.status === 200) this.aliveSeq = Math.max(this.aliveSeq, seq);
      if (res.status === 200 && !request.markdown && call.countBlocks) {
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
  }

  /** The caller's value from a 200's body (`parsed`: the JSON read while counting blocks), or why it cannot be used. */
  private answerOf<T>(
    call: ApiCall,
    request: Request,
    body: Buffer,
    parsed: { value: unknown } | undefined,
    parse: Parse<T>,
  ): { ok: true; value: T } | { ok: false; error: SpacesyncError } {
    try {
      const text = body.toString('utf8');
      const value = request.markdown ? text : parsed ? parsed.value : (JSON.parse(text) as unknown);
      return { ok: true, value: parse(value) };
    } catch (e) {
      const why = e instanceof SpacesyncError ? e.message : 'not valid JSON';
      const message = `The service's answer to ${call.method} ${call.path} could not be used: ${why}. Nothing was recorded from it; check that the link points at the space service, and report it if it repeats.`;
      return {
        ok: false,
        error: new SpacesyncError('bad_response', redactText(message, this.secrets), {
          details: { method: call.method, path: call.path, endpoint: call.endpoint, status: 200 },
        }),
      };
    }
  }

  /** The error of a call that failed; a 404 where the link itself is gone says so. */
  private async failureOf(
    call: ApiCall,
    callOptions: CallOptions | undefined,
    result: Parameters<typeof errorForResult>[1],
    lastAttempt: number,
  ): Promise<SpacesyncError> {
    const error = errorForResult(call, result, this.errorContext);
    // A link revoked mid-cycle answers 404 everywhere: "not found" must not read as "deleted".
    if (error.code !== 'not_found' || call.root || this.aliveSeq >= lastAttempt || !(await this.linkGone(callOptions))) return error;
    return new SpacesyncError(
      'link_not_found',
      `${call.method} ${call.path} answered 404, and so did GET /connection: the connection link was deleted or revoked. Create a new connection link in the app and run \`spacesync init\` again with it.`,
      {
        details: { method: call.method, path: call.path, endpoint: call.endpoint, status: 404 },
      },
    );
  }

  /** Asks `GET /connection` whether the link is gone (concurrent 404s share one question). */
  private linkGone(callOptions: CallOptions | undefined): Promise<boolean> {
    this.probe ??= this.send(
      { method: 'GET', endpoint: 'GET /connection', path: '/connection', blockCost: 0, root: true },
      { priority: callOptions?.priority ?? 'poll' },
      (v) => v,
      false,
    )
      .then(
        () => false,
        (e: unknown) => e instanceof SpacesyncError && e.code === 'link_not_found',
      )
      .finally(() => (this.probe = undefined));
    return this.probe;
  }
}

export type SpaceClient = ReturnType<typeof createClient>;
