// The console's "recent activity": the reports of the last cycles (what changed, on which side,
// when), as the daemon keeps them in the journal's state under `cycle.reports`. Until a daemon
// writes that key there is no such section: readActivity gives undefined, and the page shows none.
import type { Journal } from '../journal/index.js';

export const CYCLE_REPORTS_KEY = 'cycle.reports';

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

const str = (v: unknown): v is string => typeof v === 'string';

function changeOf(v: unknown): ActivityChange | null {
  const c = v as Record<string, unknown> | null;
  if (!c || typeof c !== 'object' || !str(c.path)) return null;
  return {
    kind: str(c.kind) ? c.kind : 'document',
    side: str(c.side) ? c.side : '',
    action: str(c.action) ? c.action : 'changed',
    path: c.path,
    ...(str(c.title) ? { title: c.title } : {}),
    ...(str(c.from) ? { from: c.from } : {}),
  };
}

function problemOf(v: unknown): string {
  if (str(v)) return v;
  const p = v as Record<string, unknown> | null;
  if (p && typeof p === 'object' && str(p.message)) return str(p.path) ? `${p.path}: ${p.message}` : p.message;
  return JSON.stringify(v);
}

/** The cycle reports, newest first; undefined while the journal holds none (no section then). */
export function readActivity(journal: Journal): ActivityReport[] | undefined {
  const v = journal.getState<unknown>(CYCLE_REPORTS_KEY);
  if (!Array.isArray(v)) return undefined;
  return v
    .flatMap((r): ActivityReport[] => {
      const x = r as Record<string, unknown> | null;
      if (!x || typeof x !== 'object' || !str(x.at)) return [];
      const changes = Array.isArray(x.changes) ? x.changes.map(changeOf).filter((c): c is ActivityChange => c !== null) : [];
      const problems = Array.isArray(x.problems) ? x.problems.map(problemOf) : [];
      return [{ at: x.at, changes, problems }];
    })
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, ACTIVITY_SHOWN);
}
