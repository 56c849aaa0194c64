// Every default of the configuration in one place: the config schema fills them in, the sync
// engine's settings start from them and the client's scheduler keeps the same reserve. The
// service's rate budgets are the wire contract's (src/wire/limits.ts), not a choice of ours.
import { SPEC_LIMITS } from './wire/limits.js';

/** Share of the request and block budgets that background work leaves for user edits. */
export const DEFAULT_RESERVE_PERCENT = 20;

export const DEFAULTS = {
  poll: { minSeconds: 15, maxSeconds: 120, fullScanMinutes: 30 },
  debounceMs: 300,
  maxDeletePercent: 50,
  budget: {
    requestsPerMinute: SPEC_LIMITS.spaceRequests.limit,
    requestsPerAddress10s: SPEC_LIMITS.addressRequests.limit,
    blocksPerMinute: SPEC_LIMITS.blocks.limit,
    reservePercent: DEFAULT_RESERVE_PERCENT,
    scale: 1,
  },
  mode: 'two-way',
  git: { autoCommit: false, push: false },
  log: { level: 'info', file: true },
  trashRetentionDays: 30,
  versions: { keepDays: 30, maxMiB: 200 },
  assets: { maxMiB: 100 },
} as const;
