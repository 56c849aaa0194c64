// Everything one running server holds: the store, the clock, the limits, the armed faults, the
// request log, the media signer and the seed it resets to.
import { randomBytes } from 'node:crypto';
import type { Db } from './store/openStore.js';
import type { SpaceSettings } from './store/space.js';
import type { Limits } from './limits/Limits.js';
import type { Faults } from './faults.js';
import type { MediaSigner } from './model/mediaUrls.js';
import type { Logger } from '../log.js';
import type { SpaceFixture } from './fixture/types.js';
import type { BodyBudget } from './http/bodyLimits.js';

export interface ServerState {
  db: Db;
  /** The space's settings as loaded (refreshed by a reset). */
  space: SpaceSettings;
  clock: ServerClock;
  limits: Limits;
  faults: Faults;
  log: RequestLog;
  media: MediaSigner;
  linkId: string;
  /**
   * `http://host:port` of the signed media URLs and whiteboard addresses: the public URL the server
   * was given, else the address it listens on (set once it listens).
   */
  origin: string;
  apiKey: string | undefined;
  /** What an admin reset loads again: kept only with the admin routes on (nothing else reads it after the start). */
  seed: SpaceFixture | undefined;
  /** The next instant (server clock) at which expired trash is purged. */
  nextPurgeAt: number;
  /** Whether the link's creator is the only active participant of the space: reminders are available only then. */
  soleParticipant: boolean;
  /** The largest body `POST /upload` accepts. */
  maxUploadBytes: number;
  /** The request bodies being received now, within their budget (a 503 past it). */
  bodies: BodyBudget;
  /** Where uploads are written as they arrive (a temporary folder of this server's own). */
  uploadDir: string;
  /** Reads of uploaded files at their signed URLs (not API requests: not in `log`), for tests and benchmarks. */
  assetReads: Array<{ t: number; assetId: string; status: number }>;
  /** One line per request when the server was asked to log. */
  logger: Logger | undefined;
}

export function newLinkId(): string {
  return randomBytes(18).toString('base64url');
}

// What the server was asked, for tests that count requests (budgets, "one PUT per edit").
export interface LoggedRequest {
  /** Server clock, ms since the epoch: when the answer went (or the connection broke). */
  t: number;
  /** Server clock: when the request arrived (before any delay it met, so `receivedAt..t` is when it may have been applied). */
  receivedAt: number;
  method: string;
  /** The path after the link (`/blocks`), never the link itself. */
  path: string;
  query: Record<string, string | string[]>;
  /** 0 when the connection was reset before a response. */
  status: number;
  blocksCharged: number;
}

const MAX_ENTRIES = 100_000;

export class RequestLog {
  private entries: LoggedRequest[] = [];

  add(e: LoggedRequest): void {
    this.entries.push(e);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): LoggedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}

// The server's clock: the real (or injected) time, shifted or frozen by the admin routes so
// tests can move a space through days and rate-limit windows without waiting.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ServerClock implements Clock {
  private offset = 0;
  private frozenAt: number | undefined;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.frozenAt ?? this.base.now() + this.offset;
  }

  /** Jumps to `time`; the clock keeps running from there unless `frozen`. */
  set(time: number, frozen = false): void {
    this.frozenAt = undefined;
    this.offset = time - this.base.now();
    if (frozen) this.frozenAt = time;
  }

  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offset += ms;
  }

  /** Back to the base clock. */
  restore(): void {
    this.offset = 0;
    this.frozenAt = undefined;
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }
}
