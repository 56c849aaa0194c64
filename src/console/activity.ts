// The console's "recent activity": the reports of the last cycles (what changed, on which side,
// when), as every cycle keeps them in the journal (sync/cycle/recordReport). Until one was kept
// there is no such section: readActivity gives undefined, and the page shows none.
import type { Journal } from '../journal/index.js';
import { readRecentReports } from '../sync/index.js';

/** How many reports the page shows, newest first. */
export const ACTIVITY_SHOWN = 30;

export interface ActivityChange {
  kind: string;
  /** Where the change was made: `local` (here, sent to the space) or `remote` (in the space, pulled here). */
  side: string;
  action: string;
  path: string;
  title?: string;
  /** Where it was before, for a move or a rename. */
  from?: string;
}

export interface ActivityReport {
  at: string;
  changes: ActivityChange[];
  /** What went wrong in that cycle, as sentences. */
  problems: string[];
}

/** The cycle reports that changed something or whose problems moved, newest first; undefined while the journal holds none (no section then). */
export function readActivity(journal: Journal): ActivityReport[] | undefined {
  const reports = readRecentReports(journal);
  if (reports.length === 0) return undefined;
  return reports
    .map((r) => ({
      at: r.finishedAt,
      changes: r.changes.map(({ kind, side, action, path, title, from }) => ({ kind, side, action, path, title, ...(from ? { from } : {}) })),
      problems: r.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)),
    }))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, ACTIVITY_SHOWN);
}
