// What every route handler gets: the store, this request's instant, the space's settings, how
// to sign media URLs, and the block accounting of the space's block budget.
import type { Db } from './store/openStore.js';
import type { SpaceSettings } from './store/space.js';
import type { MediaSigner } from './model/mediaUrls.js';
import type { Limits } from './limits/Limits.js';

export interface RequestContext {
  readonly db: Db;
  /** This request's instant (server clock, ms); fixed for the whole request. */
  readonly now: number;
  readonly space: SpaceSettings;
  /** `http://host:port` of signed media URLs: the server's public URL or its listening address (ServerState.origin). */
  readonly origin: string;
  readonly media: MediaSigner;
  /** Counts `n` blocks read or written; throws the 429 of the block budget when they do not fit. */
  chargeBlocks(n: number): void;
  readonly blocksCharged: number;
}

export function createContext(init: { db: Db; now: number; space: SpaceSettings; origin: string; media: MediaSigner; limits: Limits }): RequestContext {
  let charged = 0;
  return {
    db: init.db,
    now: init.now,
    space: init.space,
    origin: init.origin,
    media: init.media,
    chargeBlocks(n: number) {
      if (n <= 0) return;
      if (!init.limits.blocksFit(init.now, charged, n)) throw init.limits.blockLimitError(init.now);
      charged += n;
    },
    get blocksCharged() {
      return charged;
    },
  };
}
