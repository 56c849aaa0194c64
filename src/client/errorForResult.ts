// Turns a request that did not succeed into one SpacesyncError with a stable code, the request
// (method and path under the link, never the link itself) and what the service said.
import { SpacesyncError, type ErrorCode } from '../errors.js';
import { redactText, redactValue } from '../redact.js';
import type { ApiCall } from './apiCall.js';
import { parseErrorBody, type ServiceError } from './parseErrorBody.js';
import type { AttemptFailure, JobResult } from './scheduler.js';

export interface ErrorContext {
  /** The service's host, safe to show (the link id is not part of it). */
  host: string;
  hasApiKey: boolean;
  /** The link, its id and the API key: masked wherever they appear. */
  secrets: readonly string[];
}

const NEW_LINK = 'Create a new connection link in the app and run `spacesync init` again with it.';

function tries(result: JobResult): string {
  return result.attempts === 1 ? '' : ` (${result.attempts} attempts)`;
}

export function errorForResult(call: ApiCall, result: JobResult, ctx: ErrorContext): SpacesyncError {
  const req = `${call.method} ${call.path}`;
  const base = { method: call.method, path: call.path, endpoint: call.endpoint, attempts: result.attempts, retriedAfter: result.retriedAfter };
  const make = (code: ErrorCode, message: string, details: Record<string, unknown>, cause?: unknown) =>
    new SpacesyncError(code, redactText(message, ctx.secrets), {
      details: redactValue({ ...base, ...details }, ctx.secrets) as Record<string, unknown>,
      ...(cause === undefined ? {} : { cause: redactValue(cause, ctx.secrets) }),
    });

  const { outcome } = result;
  if (outcome.kind === 'failure') return failureError(call, result, outcome, ctx, make, req);

  const status = outcome.status;
  const service: ServiceError = parseErrorBody(outcome.body, outcome.headers['content-type']);
  const said = `${status}${service.code ? ` ${service.code}` : ''}: "${service.message}"`;
  const details = { status, serviceCode: service.code, serviceMessage: service.message, serviceDetails: service.details };
  const earlier = result.retriedAfter.some((c) => c !== '429')
    ? ' An earlier attempt broke off after it was sent, so the service may already have applied this request.'
    : '';
  const answer: Answer = { call, result, ctx, make, req, status, service, said, details, earlier };
  return accessError(answer) ?? statusError(answer);
}

/** A status answer, read: what the two halves of `errorForResult` below tell from. */
interface Answer {
  call: ApiCall;
  result: JobResult;
  ctx: ErrorContext;
  make: (code: ErrorCode, message: string, details: Record<string, unknown>) => SpacesyncError;
  /** The request as shown: method and path under the link. */
  req: string;
  status: number;
  service: ServiceError;
  /** What the service said, as shown: its status, code and message. */
  said: string;
  details: Record<string, unknown>;
  /** A note when an earlier attempt may have been applied; empty otherwise. */
  earlier: string;
}

/** The refusals of access: the rate limit, the key, the link's rights. Null for any other status. */
function accessError({ call, result, ctx, make, req, status, service, said, details }: Answer): SpacesyncError | null {
  if (status === 429) {
    return make(
      'rate_limited',
      `The service kept refusing ${req} for exceeding the rate limit (429)${tries(result)}. Another client may be spending this space's budget; spacesync slows down on its own, so try again in a minute.`,
      details,
    );
  }
  if (status === 401) {
    return ctx.hasApiKey
      ? make(
          'auth_rejected',
          `The service did not accept the API key sent with ${req} (${said}). Check SPACESYNC_API_KEY or "apiKey" in .spacesync/config.json.`,
          details,
        )
      : make(
          'auth_missing',
          `The service wants an API key for this link (${req} answered ${said}). Set SPACESYNC_API_KEY or "apiKey" in .spacesync/config.json to the key created with the link.`,
          details,
        );
  }
  if (call.path.startsWith('/reminders') && status >= 400 && status < 500 && (status === 403 || /availab/i.test(service.message))) {
    return make(
      'unavailable',
      `Reminders are not available with this link (${req} answered ${said}): an ordinary link needs its creator to be the only active participant of the space. Use a sign-in connection, or leave reminders out.`,
      details,
    );
  }
  if (status === 403) {
    return make(
      'auth_rejected',
      ctx.hasApiKey
        ? `The service rejected the API key for ${req} (${said}). Check SPACESYNC_API_KEY or "apiKey" in .spacesync/config.json, or create a new link in the app.`
        : `The service refused ${req} (${said}). The link may lack access; ${NEW_LINK}`,
      details,
    );
  }
  return null;
}

/** Every other status: a route or thing not found, too large, the service failing, an invalid request. */
function statusError({ call, result, make, req, status, service, said, details, earlier }: Answer): SpacesyncError {
  if (status === 404) {
    if (call.root) {
      return make('link_not_found', `The service does not know this connection link (404 on ${req}): it was deleted or revoked. ${NEW_LINK}`, details);
    }
    if (service.html) {
      return make(
        'not_found',
        `The service has no route ${req} (404, an HTML page: "${service.message}"). The link may be wrong, or the endpoint changed; check the link, and ${NEW_LINK.charAt(0).toLowerCase()}${NEW_LINK.slice(1)}`,
        details,
      );
    }
    return make(
      'not_found',
      `${req} found nothing (${said}). It was probably deleted or moved meanwhile; re-read the document or listing and try again.${earlier}`,
      details,
    );
  }
  if (status === 413) {
    return make('too_large', `${req} was too large for the service (${said}). Send it in smaller parts.`, details);
  }
  if (status >= 500) {
    if (call.method === 'POST') {
      return make(
        'maybe_applied',
        `${req} failed with ${said}, and the service may have applied it before failing. It was not sent again, to avoid doing it twice: re-read the document before sending it again.`,
        { ...details, maybeApplied: true },
      );
    }
    return make('server', `The service failed on ${req} (${said})${tries(result)}. It may be having trouble; try again later.`, details);
  }
  if (status >= 400) {
    const hint =
      service.code === 'INVALID_REGEX_ERROR'
        ? ' The search pattern must be an RE2 regular expression; fix the pattern.'
        : ' Check the input of the request; if spacesync sent it on its own, report it with the log.';
    return make('validation', `The service refused ${req} as invalid (${said}).${hint}${earlier}`, details);
  }
  return make(
    'bad_response',
    `${req} answered with status ${status}, which the service does not use. Check that the link points at the space service.`,
    details,
  );
}

function failureError(
  call: ApiCall,
  result: JobResult,
  failure: AttemptFailure,
  ctx: ErrorContext,
  make: (code: ErrorCode, message: string, details: Record<string, unknown>, cause?: unknown) => SpacesyncError,
  req: string,
): SpacesyncError {
  const why = failure.error instanceof Error ? failure.error.message : String(failure.error);
  const details = { reason: failure.reason, sent: failure.sent };
  if (call.method === 'POST' && failure.sent) {
    const what = failure.reason === 'timeout' ? 'got no answer in time' : 'lost its connection before the answer';
    return make(
      'maybe_applied',
      `${req} ${what} (${why}); the service may have applied it. It was not sent again, to avoid doing it twice: re-read the document before sending it again.`,
      { ...details, maybeApplied: true },
      failure.error,
    );
  }
  if (failure.reason === 'timeout') {
    return make(
      'timeout',
      `${req} got no answer from ${ctx.host} in time${tries(result)} (${why}). The service or the network is slow; try again later.`,
      details,
      failure.error,
    );
  }
  return make(
    'network',
    `Could not reach the service at ${ctx.host} for ${req}${tries(result)} (${why}). Check the network connection and the host of the link.`,
    details,
    failure.error,
  );
}
