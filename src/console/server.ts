// The console's HTTP side (fastify, as the server's): loopback only, every request judged by guard.ts
// before any route, the page and its library from pageFiles.ts under a strict Content-Security-
// Policy, the mirrors' data as JSON, their changes as server-sent events, and the actions of
// actions.ts. Reading and acting go through the same code as `status`, `conflicts`, `history` and
// `restore`, so it all works with or without a daemon running on the mirrors.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { isSpacesyncError } from '../errors.js';
import { CONSOLE_ACTIONS, type ConsoleAction } from './actions.js';
import { ChangeFeed } from './changeFeed.js';
import { readFileHistory } from './fileHistory.js';
import { judge, newToken } from './guard.js';
import { masked, readMirrorView } from './mirrorView.js';
import { contentSecurityPolicy, loadPageFiles, type Asset } from './pageFiles.js';

export interface ConsoleOptions {
  /** The mirror folders shown, in this order (their index is their id in the API). */
  dirs: readonly string[];
  /** 0: any free port. */
  port?: number;
  /** A fixed token (tests); a fresh random one otherwise. */
  token?: string;
  actions?: readonly ConsoleAction[];
  /** How often the mirrors are looked at for changes while a page listens. */
  pollMs?: number;
  /** Where an unexpected failure is told (one line). */
  onError?: (line: string) => void;
}

export interface RunningConsole {
  /** The address to open: `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 25_000;

export async function startConsole(opts: ConsoleOptions): Promise<RunningConsole> {
  const token = opts.token ?? newToken();
  const actions = opts.actions ?? CONSOLE_ACTIONS;
  const dirs = [...opts.dirs];
  const page = loadPageFiles();
  const csp = contentSecurityPolicy(page.scriptHashes);
  const feed = new ChangeFeed(dirs, opts.pollMs);
  // One action at a time per mirror: two clicks never interleave their file and journal writes.
  const queues = dirs.map(() => Promise.resolve());
  let port = 0;

  const app = Fastify({ logger: false, bodyLimit: 64 * 1024, forceCloseConnections: true });

  const headers = {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };

  app.addHook('onRequest', async (req, reply) => {
    reply.headers(headers);
    const verdict = judge(
      { method: req.method, url: req.url, host: req.headers.host, origin: req.headers.origin, cookie: req.headers.cookie },
      { port, token },
    );
    if (!verdict.ok) return reply.code(verdict.status).type('text/plain; charset=utf-8').send(`${verdict.message}\n`);
    if ('login' in verdict) return reply.code(303).header('set-cookie', verdict.login.setCookie).header('location', verdict.login.location).send();
  });

  const send = (reply: FastifyReply, a: Asset | undefined) =>
    a ? reply.type(a.type).send(a.body) : reply.code(404).type('text/plain; charset=utf-8').send('Not found.\n');

  app.get('/', async (_req, reply) => send(reply, page.index));
  app.get<{ Params: { file: string } }>('/app/:file', async (req, reply) => send(reply, page.app.get(req.params.file)));
  app.get<{ Params: { file: string } }>('/vendor/:file', async (req, reply) => send(reply, page.vendor.get(req.params.file)));

  registerMirrorApi(app, opts, { dirs, actions, feed, queues });

  app.get('/api/events', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    const unsubscribe = feed.subscribe((mirror) => res.write(`event: mirror\ndata: ${JSON.stringify({ id: mirror })}\n\n`));
    const beat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
    req.raw.on('close', () => {
      clearInterval(beat);
      unsubscribe();
    });
  });

  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: async () => {
      feed.stop();
      await app.close();
    },
  };
}

/** The mirrors' API: their views, a file's history, and the actions, one at a time per mirror (`queues`). */
function registerMirrorApi(
  app: FastifyInstance,
  opts: ConsoleOptions,
  { dirs, actions, feed, queues }: { dirs: string[]; actions: readonly ConsoleAction[]; feed: ChangeFeed; queues: Array<Promise<void>> },
): void {
  /** The mirror of `:id`, or a 404 answer. */
  const mirrorOf = (id: string, reply: FastifyReply): number | undefined => {
    const n = /^\d+$/.test(id) ? Number(id) : NaN;
    if (Number.isInteger(n) && n < dirs.length) return n;
    void reply.code(404).send({ error: { code: 'not_found', message: `No mirror ${id} in this console: it shows ${dirs.length}.` } });
    return undefined;
  };

  const failure = (reply: FastifyReply, e: unknown) => {
    if (isSpacesyncError(e)) {
      const status = e.code === 'usage' ? 400 : e.code === 'locked' ? 409 : 500;
      return reply.code(status).send({ error: { code: e.code, message: masked(e.message, dirs) } });
    }
    opts.onError?.(`spacesync console: unexpected error: ${masked((e as Error)?.stack ?? String(e), dirs)}`);
    return reply.code(500).send({ error: { code: 'unexpected', message: 'An unexpected error; the console printed it where it runs.' } });
  };

  app.get('/api/mirrors', async (_req, reply) => {
    try {
      return { mirrors: await Promise.all(dirs.map((d, i) => readMirrorView(i, d, { actions }))) };
    } catch (e) {
      return failure(reply, e);
    }
  });

  app.get<{ Params: { id: string } }>('/api/mirrors/:id', async (req, reply) => {
    const id = mirrorOf(req.params.id, reply);
    if (id === undefined) return reply;
    try {
      return await readMirrorView(id, dirs[id]!, { actions });
    } catch (e) {
      return failure(reply, e);
    }
  });

  app.get<{ Params: { id: string }; Querystring: { path?: string } }>('/api/mirrors/:id/history', async (req, reply) => {
    const id = mirrorOf(req.params.id, reply);
    if (id === undefined) return reply;
    const rel = req.query.path;
    if (typeof rel !== 'string' || rel === '')
      return reply.code(400).send({ error: { code: 'usage', message: 'Which file? Pass its path: ?path=Notes/Plan.md' } });
    try {
      return await readFileHistory(dirs[id]!, rel, actions);
    } catch (e) {
      return failure(reply, e);
    }
  });

  app.post<{ Params: { id: string; name: string }; Body: unknown }>('/api/mirrors/:id/actions/:name', async (req, reply) => {
    const id = mirrorOf(req.params.id, reply);
    if (id === undefined) return reply;
    const action = actions.find((a) => a.name === req.params.name);
    if (!action) return reply.code(404).send({ error: { code: 'not_found', message: `No action "${req.params.name}" in this console.` } });
    const args = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const run = queues[id]!.then(() => action.run(dirs[id]!, args));
    queues[id] = run.then(
      () => undefined,
      () => undefined,
    );
    try {
      const result = await run;
      feed.poke(id);
      return { message: masked(result.message, dirs) };
    } catch (e) {
      return failure(reply, e);
    }
  });
}
