// The last hour of the daemon's spending, minute by minute, for the console's chart: each save of
// the client's counters adds what was spent since the save before to the minute it was saved in. The
// counters themselves are running totals (one daemon's, from its start), so a minute's share is a
// difference; a new daemon (another start or pid) counts from zero.
import type { Journal } from './Journal.js';

export const RATE_HISTORY_KEY = 'status.rateHistory';

/** How many minutes are kept: the console's chart shows the last hour. */
export const RATE_HISTORY_MINUTES = 60;

export interface RateMinute {
  /** The minute's start (ISO 8601, seconds zero). */
  minute: string;
  /** Requests sent (retries included), blocks read or written, and answers 429, in that minute. */
  requests: number;
  blocks: number;
  rateLimited: number;
}

/** The running totals a save records (a subset of DaemonStats). */
export interface RateTotals {
  savedAt: string;
  startedAt: string;
  pid: number;
  requests: number;
  blocksSpent: number;
  rateLimited: number;
}

const minuteOf = (iso: string): string => {
  const d = new Date(iso);
  d.setUTCSeconds(0, 0);
  return d.toISOString();
};

const isMinute = (v: unknown): v is RateMinute =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as RateMinute).minute === 'string' &&
  ['requests', 'blocks', 'rateLimited'].every((k) => typeof (v as never)[k] === 'number');

/** Adds what `next` spent since `prev` (the previous save, if the same daemon's) to its minute; drops minutes older than the hour. */
export function addRateSample(journal: Journal, prev: RateTotals | undefined, next: RateTotals): void {
  const same = prev !== undefined && prev.startedAt === next.startedAt && prev.pid === next.pid && next.requests >= prev.requests;
  const spent = {
    requests: next.requests - (same ? prev.requests : 0),
    blocks: next.blocksSpent - (same ? prev.blocksSpent : 0),
    rateLimited: next.rateLimited - (same ? prev.rateLimited : 0),
  };
  const minute = minuteOf(next.savedAt);
  const oldest = Date.parse(minute) - (RATE_HISTORY_MINUTES - 1) * 60_000;
  const before = readRateMinutes(journal);
  const kept = before.filter((m) => Date.parse(m.minute) >= oldest);
  const spentAny = spent.requests > 0 || spent.blocks > 0 || spent.rateLimited > 0;
  // An idle poll that spent nothing and drops nothing writes nothing.
  if (!spentAny && kept.length === before.length) return;
  if (spentAny) {
    const at = kept.find((m) => m.minute === minute) ?? kept[kept.push({ minute, requests: 0, blocks: 0, rateLimited: 0 }) - 1]!;
    at.requests += Math.max(0, spent.requests);
    at.blocks += Math.max(0, spent.blocks);
    at.rateLimited += Math.max(0, spent.rateLimited);
  }
  kept.sort((a, b) => (a.minute < b.minute ? -1 : a.minute > b.minute ? 1 : 0));
  journal.setState(RATE_HISTORY_KEY, kept);
}

/** The minutes recorded (only those with spending), oldest first, as stored. */
function readRateMinutes(journal: Journal): RateMinute[] {
  const v = journal.getState<unknown>(RATE_HISTORY_KEY);
  return Array.isArray(v) ? v.filter(isMinute).map((m) => ({ ...m })) : [];
}

/** The last hour up to `now`, one entry per minute, oldest first (a minute with nothing spent is zeros). */
export function readRateHistory(journal: Journal, now: Date): RateMinute[] {
  const last = Date.parse(minuteOf(now.toISOString()));
  const byMinute = new Map(readRateMinutes(journal).map((m) => [m.minute, m]));
  return Array.from({ length: RATE_HISTORY_MINUTES }, (_, i) => {
    const minute = new Date(last - (RATE_HISTORY_MINUTES - 1 - i) * 60_000).toISOString();
    return byMinute.get(minute) ?? { minute, requests: 0, blocks: 0, rateLimited: 0 };
  });
}
