// The collection tables' part of a cycle's report: each table whose edits were sent, by its
// collection's name; what could not be sent, as problems of the file.
import type { Problem, ReportPart } from '../../core/report/cycleReport.js';
import type { CollectionPushResult } from './pushCollections.js';

const rows = (n: number, what: string) => (n === 0 ? [] : [`${n} row${n === 1 ? '' : 's'} ${what}`]);

export function collectionsPart(r: CollectionPushResult): ReportPart {
  return {
    changes: r.sent.map((t) => ({
      kind: 'table' as const,
      side: 'local' as const,
      action: 'updated' as const,
      path: t.path,
      title: t.collection,
      detail: [...rows(t.updated, 'changed'), ...rows(t.created, 'added'), ...rows(t.removed, 'removed')].join(', '),
    })),
    problems: r.problems.map((p): Problem => ({ key: `table:${p.path}:${p.message}`, path: p.path, severity: 'held', message: p.message })),
    notes: r.notes,
    requests: r.requests,
  };
}
