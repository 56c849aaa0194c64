// One API request as the endpoint functions describe it, before the client sends it; and the
// query encoding the service expects (arrays as repeated keys, booleans as true/false).
import type { Priority } from './scheduler.js';
import type { Method } from './transport.js';

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface ApiCall {
  method: Method;
  /** The endpoint without ids (`GET /collections/{collectionId}/items`), for counters and logs. */
  endpoint: string;
  /** The path under the link, ids filled in and encoded (`/collections/abc/items`). */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  raw?: { data: Uint8Array; contentType: string };
  /** `text/markdown` asks `GET /blocks` for the rendered document. */
  accept?: 'json' | 'markdown';
  /** Estimated blocks read or written; a function is asked when the request is about to go. */
  blockCost: number | (() => number);
  /** Counts the blocks the answer really carried, to correct the estimate. */
  countBlocks?: (value: unknown) => number;
  /** A listing at the root of the link: a 404 here means the link itself is gone. */
  root?: boolean;
}

export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value as readonly (string | number)[]) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** A path segment of an id, encoded so an odd id cannot change the route. */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

export interface CallOptions {
  priority?: Priority;
  /** Known block count (a document's blocks for `GET /blocks`); replaces the client's estimate. */
  blockCost?: number;
  timeoutMs?: number;
}

/** Parses an answer's value (JSON, or text for `text/markdown`) into the method's result. */
export type Parse<T> = (value: unknown) => T;
/** Sends a call through the space's scheduler and parses its answer. */
export type Send = <T>(call: ApiCall, options: CallOptions | undefined, parse: Parse<T>) => Promise<T>;
