// Keeps what `status`, the console and the next cycles need of each report: the time of the last
// look at the space (a quiet poll included), the last report that changed something, the recent
// reports, and the problems standing. A problem is told when it appears and when it clears: the
// next report is compared with the standing ones, within what it looked at.
import { changedAnything, compareProblems, type CycleReport, type Problem } from '../../core/report/cycleReport.js';
import type { Journal } from '../../journal/index.js';

/** State keys of the reports. */
export const REPORT_KEYS = {
  /** `{ at, scope }` of the last report, whatever it did. */
  lastLook: 'report.lastLook',
  /** The last report that changed something on either side. */
  lastChange: 'report.lastChange',
  /** The problems standing, with when each appeared. */
  problems: 'report.problems',
  /** The last reports that changed something or whose problems moved, newest last (the console's activity). */
  recent: 'cycle.reports',
} as const;

const RECENT = 50;

export type StandingProblem = Problem & { since: string };

export function readProblems(journal: Journal): StandingProblem[] {
  const list = journal.getState<StandingProblem[]>(REPORT_KEYS.problems);
  return Array.isArray(list) ? list : [];
}

export function readLastLook(journal: Journal): { at: string; scope: CycleReport['scope'] } | undefined {
  return journal.getState(REPORT_KEYS.lastLook);
}

export function readLastChange(journal: Journal): CycleReport | undefined {
  return journal.getState(REPORT_KEYS.lastChange);
}

export function readRecentReports(journal: Journal): CycleReport[] {
  const list = journal.getState<CycleReport[]>(REPORT_KEYS.recent);
  return Array.isArray(list) ? list : [];
}

/**
 * What a report looked at, for its problems: a full cycle, everything; a cycle of some files, those
 * files' documents and every other kind (which a cycle always looks at whole); a push, its files'
 * documents and tables; the downloads applied between cycles, the downloads.
 */
export function lookedAt(scope: CycleReport['scope'], paths?: ReadonlySet<string>): (p: Problem) => boolean {
  const documentKey = (p: Problem) => /^(held|unsent|send|table):/.test(p.key);
  if (scope === 'media') return (p) => p.key.startsWith('download:');
  // A push that was not refused says nothing of a cycle's refusal, which only a cycle clears.
  if (scope === 'push') return (p) => documentKey(p) && (paths === undefined || paths.has(p.path));
  return (p) => paths === undefined || !documentKey(p) || paths.has(p.path);
}

/** Records the report; returns the problems it makes appear and those it clears. */
export function recordReport(journal: Journal, report: CycleReport, looked: (p: Problem) => boolean): { appeared: Problem[]; cleared: Problem[] } {
  const before = readProblems(journal);
  const { appeared, cleared, standing } = compareProblems(before, report.problems, looked);
  const since = new Map(before.map((p) => [p.key, p.since]));
  const next: StandingProblem[] = standing.map((p) => ({ ...p, since: since.get(p.key) ?? report.finishedAt }));
  journal.transaction(() => {
    journal.setState(REPORT_KEYS.lastLook, { at: report.finishedAt, scope: report.scope });
    if (JSON.stringify(next) !== JSON.stringify(before)) journal.setState(REPORT_KEYS.problems, next);
    if (changedAnything(report)) journal.setState(REPORT_KEYS.lastChange, report);
    if (changedAnything(report) || appeared.length + cleared.length > 0 || report.refusal) {
      const recent = [...readRecentReports(journal), { ...report, problems: appeared }].slice(-RECENT);
      journal.setState(REPORT_KEYS.recent, recent);
    }
  });
  return { appeared, cleared };
}
