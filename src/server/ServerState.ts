// Everything one running server holds: the store, the clock, the limits, the armed faults, the
// request log, the media signer and the seed it resets to.
import { randomBytes } from 'node:crypto';
import type { Db } from './store/openStore.js';
import type { SpaceSettings } from './store/space.js';
import type { ServerClock } from './clock.js';
import type { Limits } from './limits/Limits.js';
import type { Faults } from './faults.js';
import type { RequestLog } from './requestLog.js';
import type { MediaSigner } from './model/mediaUrls.js';
import type { Logger } from '../log.js';
import type { SpaceFixture } from './fixture/types.js';
import type { BodyBudget } from './http/bodyBudget.js';

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
