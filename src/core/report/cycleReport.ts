// What one cycle (or one push of saved files) did, as data: every change with its kind of content,
// the file or folder it touched, the title a person knows it by and the side it came from, and the
// problems standing after it. Each slice returns its part; the terminal lines, `status`, the log and
// the git commit message are all rendered from this one report, so they cannot disagree.

/** `local`: changed here and sent to the space; `remote`: changed in the space and brought here. */
export type Side = 'local' | 'remote';

export type ContentKind = 'document' | 'folder' | 'asset' | 'scene' | 'task' | 'table';

export type Action = 'created' | 'updated' | 'renamed' | 'moved' | 'deleted' | 'restored' | 'purged' | 'uploaded' | 'downloaded' | 'completed' | 'reopened';

export interface Change {
  kind: ContentKind;
  side: Side;
  action: Action;
  /** The file (or folder) as it is after the change; for a task or a table row, the file that shows it. */
  path: string;
  /** The title the space knows it by (a task's text, a row's title); the file's name when it has none. */
  title: string;
  /** A move's old path, a rename's old title. */
  from?: string;
  /** A word more: where it went (`in the space's trash`), what else changed (`and edited`). */
  detail?: string;
}

/** Something the cycle could not do, which stays until the user (or the space) changes something. */
export interface Problem {
  /** Stable while the problem stands: the same problem in the next cycle has the same key. */
  key: string;
  /** The file (or folder) it is about; empty for the whole mirror. */
  path: string;
  /**
   * `held`: not sent (or not written) until the user acts; `failed`: tried again by the next cycle;
   * `retrying`: waits for a retry of its own beside the cycles (a download), no failure of the cycle.
   */
  severity: 'held' | 'failed' | 'retrying';
  message: string;
}

export interface CycleReport {
  startedAt: string;
  finishedAt: string;
  /** `cycle`: both ways over the folder (or the files named); `push`: saved files sent; `media`: downloads applied between cycles. */
  scope: 'cycle' | 'push' | 'media';
  changes: Change[];
  /** Conflict copies made: the space's version is in `path`, the one found here in `copy`. */
  conflicts: Array<{ path: string; copy: string }>;
  problems: Problem[];
  /** A safety check that stopped the cycle before it changed anything. */
  refusal: { reason: string; message: string; deletes: string[] } | null;
  /** Requests sent (reads included). */
  requests: number;
  /** Blocks the push wrote. */
  blocksWritten: number;
  /** Lines said once in the cycle that are no change and no standing problem (an adoption's summary). */
  notes: string[];
}

export function emptyReport(scope: CycleReport['scope'], startedAt: string): CycleReport {
  return { startedAt, finishedAt: startedAt, scope, changes: [], conflicts: [], problems: [], refusal: null, requests: 0, blocksWritten: 0, notes: [] };
}

/** A slice's part of a report. */
export type ReportPart = Partial<Pick<CycleReport, 'changes' | 'conflicts' | 'problems' | 'notes' | 'requests' | 'blocksWritten'>>;

/** The report with each slice's part added, in the order of the slices. */
export function joinReport(report: CycleReport, ...parts: readonly ReportPart[]): CycleReport {
  const out = { ...report, changes: [...report.changes], conflicts: [...report.conflicts], problems: [...report.problems], notes: [...report.notes] };
  for (const p of parts) {
    out.changes.push(...(p.changes ?? []));
    out.conflicts.push(...(p.conflicts ?? []));
    out.problems.push(...(p.problems ?? []));
    out.notes.push(...(p.notes ?? []));
    out.requests += p.requests ?? 0;
    out.blocksWritten += p.blocksWritten ?? 0;
  }
  const seen = new Set<string>();
  out.problems = out.problems.filter((p) => !seen.has(p.key) && seen.add(p.key));
  return out;
}

/** Whether the cycle changed anything on either side. */
export const changedAnything = (r: CycleReport): boolean => r.changes.length + r.conflicts.length > 0;

/**
 * The problems a report shows, against those that stood before it: the ones that appear, and the
 * ones that cleared. A report of some files only (`scope`: their paths) says nothing of the others,
 * which stand as they were. The next standing list is returned with them.
 */
export function compareProblems(
  before: readonly Problem[],
  now: readonly Problem[],
  looked?: (p: Problem) => boolean,
): { appeared: Problem[]; cleared: Problem[]; standing: Problem[] } {
  const had = new Map(before.map((p) => [p.key, p]));
  const has = new Map(now.map((p) => [p.key, p]));
  const appeared = now.filter((p) => !had.has(p.key));
  const cleared = before.filter((p) => !has.has(p.key) && (looked === undefined || looked(p)));
  const gone = new Set(cleared.map((p) => p.key));
  const standing = [...before.filter((p) => !gone.has(p.key) && !has.has(p.key)), ...now];
  return { appeared, cleared, standing };
}

/** The sides a report's changes came from, each with its changes, `local` first. */
export function bySide(changes: readonly Change[]): Array<{ side: Side; changes: Change[] }> {
  return (['local', 'remote'] as const).map((side) => ({ side, changes: changes.filter((c) => c.side === side) })).filter((g) => g.changes.length > 0);
}
