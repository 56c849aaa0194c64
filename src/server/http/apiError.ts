// The error responses of the Space API in the exact shapes the live service sends
// (docs/api.md "Envelopes and errors"); a handler throws one and the app renders it.

export type ApiErrorBody =
  | { error: string; code: string }
  | { error: string; code: 'VALIDATION_ERROR'; details: Array<{ code: string; message: string; path?: Array<string | number> }> }
  | { errors: Array<{ code: string; message: string }> }
  | { error: string; code: 'INVALID_REGEX_ERROR'; details: Record<string, unknown> };

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, body: ApiErrorBody, headers: Record<string, string> = {}) {
    super('error' in body ? body.error : body.errors.map((e) => e.message).join('; '));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** Shape 1 with a 400: a request the interface refuses (e.g. creating a document in trash). */
export function badRequest(message: string): ApiError {
  return new ApiError(400, { error: message, code: 'VALIDATION_ERROR' });
}

/** Shape 2: schema validation, a Zod-style issue list. */
export function validationFailed(issues: Array<{ message: string; path?: Array<string | number> }>): ApiError {
  return new ApiError(400, {
    error: 'Validation failed',
    code: 'VALIDATION_ERROR',
    details: issues.map((i) => (i.path && i.path.length > 0 ? { code: 'custom', message: i.message, path: i.path } : { code: 'custom', message: i.message })),
  });
}

/** Shape 1 with a 404. */
export function notFound(what: string): ApiError {
  return new ApiError(404, { error: `${what} not found`, code: 'NOT_FOUND_ERROR' });
}

/** Shape 3: the plural 404 that `PUT /blocks` answers with. */
export function notFoundPlural(what: string): ApiError {
  return new ApiError(404, { errors: [{ code: 'NOT_FOUND_ERROR', message: `${what} not found` }] });
}

/** Shape 4: a pattern RE2 cannot compile. */
export function invalidRegex(pattern: string, reason: string): ApiError {
  return new ApiError(400, { error: `Invalid regular expression: ${reason}`, code: 'INVALID_REGEX_ERROR', details: { pattern, reason } });
}

export function tooManyRequests(message: string, retryAfterMs: number, headers: Record<string, string> = {}): ApiError {
  return new ApiError(429, { error: message, code: 'RATE_LIMIT_ERROR' }, { ...retryAfterHeaders(retryAfterMs), ...headers });
}

/** `Retry-After` in whole seconds (HTTP), plus the exact wait for clients that read it. */
export function retryAfterHeaders(retryAfterMs: number): Record<string, string> {
  const ms = Math.max(0, Math.ceil(retryAfterMs));
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))), 'retry-after-ms': String(ms) };
}
