// The one function that puts a request on the wire, over keep-alive connections. It tells a
// request that never left (safe to send again) from one the service may have received.
import http from 'node:http';
import https from 'node:https';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TransportRequest {
  method: Method;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** Why a request got no answer, and whether the service may have received all of it. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly reason: 'connect' | 'reset' | 'timeout',
    readonly sent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}

/** Errors that mean the connection was never made, so nothing reached the service. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNABORTED']);

export interface HttpTransport extends Transport {
  /** Closes the idle keep-alive connections. */
  close(): void;
}

export function httpTransport(options: { maxSockets?: number } = {}): HttpTransport {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 8 };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const send = (request: TransportRequest): Promise<TransportResponse> =>
    new Promise<TransportResponse>((resolve, reject) => {
      const url = new URL(request.url);
      const mod = url.protocol === 'https:' ? https : http;
      const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const body = request.body;
      let sent = false;
      let timedOut = false;
      let done = false;
      const finish = (fn: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        fn();
      };
      const req = mod.request(url, {
        method: request.method,
        agent,
        headers: { ...request.headers, 'content-length': String(body?.length ?? 0) },
      });
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error(`no answer within ${request.timeoutMs} ms`));
      }, request.timeoutMs);
      // Once the whole request is handed to the network the service may act on it.
      req.on('finish', () => (sent = true));
      const fail = (error: NodeJS.ErrnoException) =>
        finish(() => {
          if (timedOut) reject(new TransportError(`No answer within ${request.timeoutMs} ms`, 'timeout', sent, { cause: error }));
          else if (!sent || (error.code !== undefined && CONNECT_CODES.has(error.code)))
            reject(new TransportError(`Could not send the request (${error.code ?? error.message})`, 'connect', false, { cause: error }));
          else
            reject(
              new TransportError(`The connection broke before the whole answer arrived (${error.code ?? error.message})`, 'reset', true, { cause: error }),
            );
        });
      req.on('error', fail);
      req.on('response', (res) => {
        const body = new BodyBuffer(Number(res.headers['content-length']));
        res.on('data', (c: Buffer) => body.add(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          finish(() => resolve({ status: res.statusCode ?? 0, headers, body: body.done() }));
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
        });
      });
      req.end(body);
    });

  return Object.assign(send, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}

/**
 * An answer's body as it arrives. With its length announced, each piece is copied into one buffer
 * of that size as it comes, and left to the collector at once: the listing of 50,000 documents is
 * some 28 MB, held once instead of twice (its pieces and their concatenation) at the cycle's peak.
 */
class BodyBuffer {
  private readonly whole: Buffer | null;
  private readonly pieces: Buffer[] = [];
  /** Bytes copied into `whole`; the rest (past an announced length that was wrong) is in `pieces`. */
  private filled = 0;

  constructor(announced: number) {
    this.whole = Number.isSafeInteger(announced) && announced > 0 ? Buffer.allocUnsafe(announced) : null;
  }

  add(piece: Buffer): void {
    if (this.whole && this.pieces.length === 0 && this.filled + piece.length <= this.whole.length) {
      piece.copy(this.whole, this.filled);
      this.filled += piece.length;
    } else this.pieces.push(piece);
  }

  done(): Buffer {
    if (!this.whole) return Buffer.concat(this.pieces);
    const head = this.filled === this.whole.length ? this.whole : this.whole.subarray(0, this.filled);
    // More than announced (a server that got it wrong): everything as it came, in order.
    return this.pieces.length > 0 ? Buffer.concat([head, ...this.pieces]) : head;
  }
}
