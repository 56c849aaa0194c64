// The shape of a route handler: a synchronous function of the request context and the request,
// run inside one transaction (a failed request changes nothing), returning the JSON body.
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../context.js';
import type { Query } from './query.js';

export interface ApiRequest {
  query: Query;
  body: unknown;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
}

/** A non-JSON response (`text/markdown`, bytes). */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer,
  ) {}
}

export type ApiHandler = (ctx: RequestContext, req: ApiRequest) => unknown;

export interface RouteOptions {
  /** A REST block operation: answers carry `X-BlockBudget-*` once the window has usage. */
  blockOperation?: boolean;
  /** Take the body as sent, whatever its type, into a file (uploads: an UploadedFile) instead of reading it as JSON. */
  rawBody?: boolean;
  /** The body's `blocks` nest (`content` inside `content`): refuse them past MAX_BLOCK_DEPTH before validating. */
  nestedBlocks?: boolean;
}

/** Routes are registered by path after the link (`/blocks`, `/collections/:collectionId/items`). */
export interface ApiRouter {
  get(path: string, handler: ApiHandler, options?: RouteOptions): void;
  post(path: string, handler: ApiHandler, options?: RouteOptions): void;
  put(path: string, handler: ApiHandler, options?: RouteOptions): void;
  delete(path: string, handler: ApiHandler, options?: RouteOptions): void;
}
