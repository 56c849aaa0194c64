// Starts the real server on an ephemeral port for a test file and talks HTTP to it: no mocks.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startServer, type RunningServer, type SpaceFixture, type StartServerOptions } from '../../src/server/index.js';

export interface Res {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: any;
  text: string;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | ReadonlyArray<string>>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A clock the test moves by hand (the server reads it for every request). */
export const START = Date.parse('2026-09-05T10:00:00Z');

export class FakeClock {
  constructor(public t = START) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface Harness {
  server: RunningServer;
  clock: FakeClock;
  api(method: string, path: string, opts?: CallOptions): Promise<Res>;
  /** A request to any URL of the server (outside the link too). */
  raw(method: string, url: string, opts?: CallOptions): Promise<Res>;
  admin(method: string, path: string, body?: unknown): Promise<Res>;
  /** Back to the seed (or `fixture`), the clock back to START, fresh limits, no faults, an empty log. */
  reset(fixture?: SpaceFixture): Promise<void>;
  close(): Promise<void>;
}

export function queryString(query: CallOptions['query']): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

async function request(method: string, url: string, opts: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const r = await fetch(url + queryString(opts.query), { method, headers, body });
  const text = await r.text();
  let parsed: unknown = text;
  if ((r.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: r.status, headers: Object.fromEntries(r.headers.entries()), body: parsed, text };
}

export async function startHarness(options: StartServerOptions & { fixture?: SpaceFixture } = {}): Promise<Harness> {
  const clock = new FakeClock();
  const { fixture, ...rest } = options;
  const server = await startServer({ limits: 'off', admin: true, clock, ...(fixture ? { seed: fixture } : {}), ...rest });
  const h: Harness = {
    server,
    clock,
    api: (method, path, opts) => request(method, server.baseUrl + path, opts),
    raw: (method, url, opts) => request(method, url.startsWith('http') ? url : server.origin + url, opts),
    admin: (method, path, body) =>
      request(method, `${server.adminUrl}${path}`, {
        ...(body === undefined ? {} : { body }),
        ...(server.adminToken !== undefined ? { headers: { authorization: `Bearer ${server.adminToken}` } } : {}),
      }),
    async reset(f) {
      clock.t = START;
      const r = await h.admin('POST', '/reset', f ? { fixture: f } : {});
      if (r.status !== 200) throw new Error(`reset failed: ${r.text}`);
    },
    close: () => server.close(),
  };
  return h;
}

/** Every block of a tree, depth first. */
export function flatten(block: any): any[] {
  return [block, ...((block.content ?? []) as any[]).flatMap(flatten)];
}

/**
 * One server for a test file, reset to its fixture before every test and closed after the last:
 * the returned object forwards to the running harness.
 */
export function useHarness(options: StartServerOptions & { fixture?: SpaceFixture } = {}): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(options);
  });
  beforeEach(async () => {
    await current!.reset();
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!current) throw new Error('the test server is not started yet: use the harness inside tests and hooks');
      const value = (current as unknown as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
