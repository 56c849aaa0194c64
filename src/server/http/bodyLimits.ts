// The limits on request bodies and their refusals. The contract does not publish the service's
// (docs/api.md "Limits": "not shown"), so they are this server's: JSON bodies are small (a write of
// 500 blocks, spacesync's largest, is far below the limit); uploads are larger and are streamed to
// a file instead of memory; all bodies together in flight share one budget (BodyBudget).
import { ApiError, validationFailed } from './apiError.js';

const MiB = 1024 * 1024;

/** The largest JSON body of an API request. */
export const MAX_JSON_BODY_BYTES = 10 * MiB;
/** The largest body of an admin request (a whole space to reset to). */
export const MAX_ADMIN_BODY_BYTES = 64 * MiB;
/** The default upload limit: 50 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * MiB;
/** The default budget of request bodies in flight at once. */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 128 * MiB;
/**
 * The deepest nesting of JSON a body may have. Parsing and validation walk nested values
 * recursively: a body nested a few hundred levels deep would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 256;

export function mebibytes(n: number): string {
  return `${Math.round((n / MiB) * 10) / 10} MiB`;
}

/** What a body of this route is, for messages: its limit and what to do instead. */
export interface BodyKind {
  what: string;
  limit: number;
  advice: string;
}

/** 413: a body over its limit; `size` when it was declared (Content-Length). */
export function bodyTooLarge(kind: BodyKind, size?: number): ApiError {
  const sent = size === undefined ? `${kind.what} is over` : `${kind.what} is ${mebibytes(size)} (${size} bytes), over`;
  return new ApiError(413, {
    error: `${sent} the limit of ${mebibytes(kind.limit)} (${kind.limit} bytes): ${kind.advice}`,
    code: 'PAYLOAD_TOO_LARGE',
  });
}

/** 503 + Retry-After: the bodies in flight leave no room for this one now. */
export function serverBusy(size: number, inFlight: number, capacity: number): ApiError {
  return new ApiError(
    503,
    {
      error: `The server is already receiving ${mebibytes(inFlight)} of request bodies (at most ${mebibytes(capacity)} at once) and this one is ${mebibytes(size)}: nothing was changed; retry after the Retry-After seconds.`,
      code: 'SERVER_BUSY',
    },
    { 'retry-after': '1' },
  );
}

/** How deep `value` nests arrays and objects (a scalar: 0), without recursion. */
export function jsonDepth(value: unknown, stopAbove = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAbove) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth]);
  }
  return deepest;
}

/** 400 for a body nested deeper than MAX_JSON_DEPTH. */
export function checkJsonDepth(body: unknown): void {
  const depth = jsonDepth(body, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw validationFailed([
      { message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} levels are accepted.` },
    ]);
  }
}

/** The deepest nesting of blocks (`content` inside `content`) one write may send. */
export const MAX_BLOCK_DEPTH = 100;

/** How many levels of blocks `blocks` holds (top-level blocks: 1), following `content`, without recursion. */
export function blockDepth(blocks: unknown, stopAbove = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[blocks, 1]];
  while (stack.length > 0) {
    const [list, d] = stack.pop()!;
    if (!Array.isArray(list)) continue;
    for (const b of list) {
      if (b === null || typeof b !== 'object') continue;
      if (d > deepest) deepest = d;
      if (deepest > stopAbove) return deepest;
      stack.push([(b as { content?: unknown }).content, d + 1]);
    }
  }
  return deepest;
}

/** 400 for a write whose blocks nest deeper than MAX_BLOCK_DEPTH (checked before the body is validated). */
export function checkBlockDepth(body: unknown): void {
  const blocks = body !== null && typeof body === 'object' ? (body as { blocks?: unknown }).blocks : undefined;
  const depth = blockDepth(blocks, MAX_BLOCK_DEPTH);
  if (depth > MAX_BLOCK_DEPTH) {
    throw validationFailed([
      {
        message: `The blocks sent nest more than ${MAX_BLOCK_DEPTH} levels deep (content inside content); at most ${MAX_BLOCK_DEPTH} levels are accepted in one request: create the deeper blocks with further requests into the pages made.`,
        path: ['blocks'],
      },
    ]);
  }
}

// How many bytes of request bodies the server takes in at once. Without a cap, a few large bodies
// arriving together are each held (and parsed) at the same time and the process runs out of
// memory; with it, a body that would go over waits for the client to retry (503 + Retry-After).
export class BodyBudget {
  private used = 0;
  private bodies = 0;

  constructor(readonly capacity: number) {}

  /**
   * Reserves `bytes` for a body about to be read; false when they do not fit. A body alone is
   * always admitted (its own limit already bounds it), so one request at the limit never waits forever.
   */
  admit(bytes: number): boolean {
    if (this.bodies > 0 && this.used + bytes > this.capacity) return false;
    this.used += bytes;
    this.bodies++;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.bodies--;
  }

  /** Bytes reserved by the bodies now in flight. */
  get inFlight(): number {
    return this.used;
  }
}
