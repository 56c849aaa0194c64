// The order a pull reads its documents in: what the user most likely opens first comes first. In a
// space of thousands of documents the first pull takes a long while at the service's pace, so the
// daily notes of the last week (today's first), then every other document most recently modified
// first; documents with no modification time last. Ties keep the order given (the journal's).

export interface PullOrderEntry {
  id: string;
  /** The service's `lastModifiedAt` (ISO), null when the listing has none. */
  lastModifiedAt: string | null;
  /** `YYYY-MM-DD` for a daily note, null otherwise. */
  dailyNoteDate: string | null;
}

/** How many days back a daily note counts as recent (today included). */
export const RECENT_DAILY_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The ids of `entries` in the order to read them. `now` decides which daily notes are recent: dated
 * from RECENT_DAILY_DAYS days before today (UTC's) to tomorrow, as a space's own day may be behind
 * or ahead of UTC's.
 */
export function pullOrder(entries: readonly PullOrderEntry[], now: Date): string[] {
  const from = isoDate(now.getTime() - RECENT_DAILY_DAYS * DAY_MS);
  const to = isoDate(now.getTime() + DAY_MS);
  const recentDaily = (e: PullOrderEntry) => e.dailyNoteDate !== null && e.dailyNoteDate >= from && e.dailyNoteDate <= to;
  const ranked = entries.map((e, index) => ({ e, index, daily: recentDaily(e), at: e.lastModifiedAt === null ? NaN : Date.parse(e.lastModifiedAt) }));
  ranked.sort((a, b) => {
    if (a.daily !== b.daily) return a.daily ? -1 : 1;
    if (a.daily && a.e.dailyNoteDate !== b.e.dailyNoteDate) return a.e.dailyNoteDate! > b.e.dailyNoteDate! ? -1 : 1;
    const aKnown = !Number.isNaN(a.at);
    const bKnown = !Number.isNaN(b.at);
    if (aKnown !== bKnown) return aKnown ? -1 : 1;
    if (aKnown && a.at !== b.at) return b.at - a.at;
    return a.index - b.index;
  });
  return ranked.map((r) => r.e.id);
}
