// Starts a Space API server: the store (a temporary one, or a file that survives restarts), the seed,
// the limits, and the HTTP app on a port (0: any free port). Tests, the demo and the command use it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isIP } from 'node:net';
import type { Clock } from './ServerState.js';
import { ServerClock, RequestLog, newLinkId, type ServerState } from './ServerState.js';
import { openStore, type Db, newId } from './store/openStore.js';
import { MEDIA_SECRET, readMeta, readSpace, writeMeta, writeSpace, type SpaceSettings } from './store/space.js';
import { Limits } from './limits/Limits.js';
import { Faults } from './faults.js';
import { MediaSigner } from './model/mediaUrls.js';
import { loadFixture } from './fixture/loadFixture.js';
import type { SpaceFixture } from './fixture/types.js';
import { buildApp } from './app.js';
import { DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, DEFAULT_MAX_UPLOAD_BYTES, BodyBudget } from './http/bodyLimits.js';
import { newAdminToken } from './http/credentials.js';
import { checkTimezone } from './dates.js';
import { createLogger, type Logger } from '../log.js';
import { SpacesyncError } from '../errors.js';

export interface StartServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The space to start with: a fixture, or the path of a fixture JSON file. An empty space when omitted. */
  seed?: SpaceFixture | string;
  /** A SQLite file to keep the space in; a file that already holds a space is not re-seeded. */
  dataFile?: string;
  limits?: 'spec' | 'off';
  /** Multiplies every rate-limit window (0.01: 100 requests per 0.6 s). */
  limitScale?: number;
  clock?: Clock;
  /** Require `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** The link id of the base URL; random when omitted. */
  linkId?: string;
  /**
   * The origin clients reach the server at (`https://space.example.com`), when it is not the
   * address it listens on (behind a proxy, or listening on 0.0.0.0): signed media URLs, whiteboard
   * addresses and the base URL use it. Never taken from a request's Host header.
   */
  publicUrl?: string;
  /** The space's time zone (overrides the seed's). */
  timezone?: string;
  /**
   * Serve the test-only admin routes under /__admin/ (reset, snapshot, clock, faults…). They need
   * `Authorization: Bearer <adminToken>` (RunningServer.adminToken: the API key when one is set,
   * else a random token made at start). Refused with a `host` that is not a loopback address unless
   * `adminAnyHost` is set.
   */
  admin?: boolean;
  /** Allow `admin` on a host other than a loopback address (the admin routes then face the network). */
  adminAnyHost?: boolean;
  /**
   * Whether the link's creator is the only active participant of the space (default true). An
   * ordinary link has reminders only then; when false, reminder requests get an availability error.
   */
  soleParticipant?: boolean;
  /** The largest upload `POST /upload` accepts, in bytes (default 50 MiB); larger ones get a 413. */
  maxUploadBytes?: number;
  /**
   * The request bodies the server receives at once, in bytes (default 128 MiB): a body that would
   * go over while others arrive gets a 503 with Retry-After. A body alone is always taken.
   */
  maxBodyBytesInFlight?: number;
  /** Log one line per request (true: to stdout; or a logger). */
  log?: boolean | Logger;
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT/links/<id>/api/v1` (on the public URL when one was given): the connection link. It is a secret. */
  baseUrl: string;
  /** `http://127.0.0.1:PORT/__admin` (served only with `admin: true`), on the listening address. */
  adminUrl: string;
  /**
   * The bearer token of the admin routes (`Authorization: Bearer <adminToken>`), with `admin: true`
   * only: the API key when one is set, else random for this start. A secret, like the link.
   */
  adminToken: string | undefined;
  /** `http://127.0.0.1:PORT`, or the public URL's origin when one was given. */
  origin: string;
  /** `http://127.0.0.1:PORT`: the address the server listens on. */
  listenOrigin: string;
  linkId: string;
  port: number;
  close(): Promise<void>;
}

export function readFixtureFile(path: string): SpaceFixture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SpacesyncError('usage', `Cannot read the seed fixture ${path}: ${(e as Error).message}. Check the path.`, { cause: e });
  }
  try {
    return JSON.parse(text) as SpaceFixture;
  } catch (e) {
    throw new SpacesyncError('usage', `The seed fixture ${path} is not valid JSON: ${(e as Error).message}.`, { cause: e });
  }
}

/** The space's URL signer: its secret kept with the space's data, so a server started again on it knows the URLs it signed. */
function mediaSignerOf(db: Db): MediaSigner {
  const kept = readMeta(db, MEDIA_SECRET);
  if (kept !== undefined && /^[0-9a-f]{64}$/.test(kept)) return new MediaSigner(Buffer.from(kept, 'hex'));
  const signer = new MediaSigner();
  writeMeta(db, MEDIA_SECRET, signer.secretHex);
  return signer;
}

/** The origin of a public URL (`https://host[:port]`, a trailing slash allowed); a usage error for anything else. */
function publicOriginOf(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SpacesyncError('usage', `The public URL "${url}" is not a URL: give the origin clients reach the server at, like https://space.example.com.`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username) {
    throw new SpacesyncError(
      'usage',
      `The public URL "${url}" must be an http or https origin without a path, query or credentials, like https://space.example.com.`,
    );
  }
  return u.origin;
}

/** Whether `host` only reaches this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/** Refuses, as usage errors, the options a command line can get wrong, before anything is opened; returns the public origin. */
function checkOptions(options: StartServerOptions, host: string): string | undefined {
  if (options.admin === true && !isLoopbackHost(host) && options.adminAnyHost !== true) {
    throw new SpacesyncError(
      'usage',
      `The admin routes (--admin) can reset, snapshot and rewrite the space; they are refused on --host ${host}, which other machines can reach. Use --host 127.0.0.1, or add --admin-any-host if the admin routes must face the network.`,
    );
  }
  const scale = options.limitScale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new SpacesyncError('usage', `The limit scale must be a positive number, not ${scale}.`);
  const maxUpload = options.maxUploadBytes;
  if (maxUpload !== undefined && !(Number.isInteger(maxUpload) && maxUpload > 0)) {
    throw new SpacesyncError('usage', `The upload limit must be a whole number of bytes above 0, not ${maxUpload}.`);
  }
  const inFlight = options.maxBodyBytesInFlight;
  if (inFlight !== undefined && !(Number.isInteger(inFlight) && inFlight > 0)) {
    throw new SpacesyncError('usage', `The budget of request bodies in flight must be a whole number of bytes above 0, not ${inFlight}.`);
  }
  const publicOrigin = options.publicUrl === undefined ? undefined : publicOriginOf(options.publicUrl);
  if (options.timezone !== undefined) {
    try {
      checkTimezone(options.timezone);
    } catch (e) {
      throw new SpacesyncError('usage', (e as Error).message);
    }
  }
  return publicOrigin;
}

/** The store and its space: a store without one is seeded; one that has a space keeps it, in the time zone asked for. */
function openSpace(dataFile: string | undefined, seed: SpaceFixture, timezone: string | undefined, now: number): { db: Db; space: SpaceSettings } {
  const db = openStore(dataFile);
  let space = readSpace(db);
  try {
    if (!space) space = loadFixture(db, seed, now);
    else if (timezone !== undefined && space.timezone !== timezone) {
      space = { ...space, timezone };
      writeSpace(db, space);
    }
  } catch (e) {
    db.close();
    throw new SpacesyncError('usage', `The seed fixture cannot be loaded: ${(e as Error).message}`, { cause: e });
  }
  return { db, space };
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const publicOrigin = checkOptions(options, host);
  const timezone = options.timezone;
  let seed: SpaceFixture =
    typeof options.seed === 'string' ? readFixtureFile(options.seed) : (options.seed ?? { version: 1, space: { id: newId(), name: 'My Space' } });
  if (timezone !== undefined) seed = { ...seed, space: { ...seed.space, timezone } };
  const clock = new ServerClock(options.clock);
  const { db, space } = openSpace(options.dataFile, seed, timezone, clock.now());
  const linkId = options.linkId ?? newLinkId();
  const logger =
    options.log === true
      ? createLogger({ name: 'spacesync-server', secrets: [linkId, ...(options.apiKey ? [options.apiKey] : [])] })
      : options.log === false || options.log === undefined
        ? undefined
        : options.log;
  const state: ServerState = {
    db,
    space,
    clock,
    linkId,
    // Known once the server listens (the port may be chosen then).
    origin: publicOrigin ?? '',
    apiKey: options.apiKey,
    // A large seed is not kept for the server's life unless an admin reset may need it.
    seed: options.admin === true ? seed : undefined,
    logger,
    limits: new Limits({ mode: options.limits ?? 'spec', scale: options.limitScale ?? 1 }),
    faults: new Faults(),
    log: new RequestLog(),
    assetReads: [],
    media: mediaSignerOf(db),
    nextPurgeAt: 0,
    soleParticipant: options.soleParticipant ?? true,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    bodies: new BodyBudget(options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT),
    uploadDir: mkdtempSync(path.join(os.tmpdir(), 'spacesync-server-uploads-')),
  };
  const adminToken = options.admin === true ? (options.apiKey ?? newAdminToken()) : undefined;
  const app = buildApp(state, { adminCredential: adminToken });
  try {
    await app.listen({ port: options.port ?? 0, host });
  } catch (e) {
    db.close();
    rmSync(state.uploadDir, { recursive: true, force: true });
    throw new SpacesyncError('usage', `Cannot listen on ${host}:${options.port ?? 0}: ${(e as Error).message}. Choose another --port or --host.`, { cause: e });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const listenOrigin = `http://${shownHost}:${port}`;
  const origin = publicOrigin ?? listenOrigin;
  state.origin = origin;
  let closed = false;
  return {
    baseUrl: `${origin}/links/${linkId}/api/v1`,
    adminUrl: `${listenOrigin}/__admin`,
    adminToken,
    origin,
    listenOrigin,
    linkId,
    port,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      db.close();
      rmSync(state.uploadDir, { recursive: true, force: true });
    },
  };
}
