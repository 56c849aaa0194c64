// The task files' part of a cycle's report: each task the inbox file sent, by its text, on the side
// it came from; the files held back as problems, the one-time notices as notes.
import type { Change, Problem, ReportPart } from '../../core/report/cycleReport.js';
import { INBOX_FILE } from '../../core/tasks/taskFiles.js';
import type { TaskFilesResult } from './syncTaskFiles.js';

export function tasksPart(t: TaskFilesResult): ReportPart {
  const task =
    (side: Change['side']) =>
    (c: TaskFilesResult['sent'][number]): Change => ({ kind: 'task', side, action: c.action, path: INBOX_FILE, title: c.text });
  return {
    changes: [...t.sent.map(task('local')), ...t.pulled.map(task('remote'))],
    problems: [
      ...t.held.map((h): Problem => ({ key: `tasks:${h.path}`, path: h.path, severity: 'held', message: h.message })),
      ...t.failed.map((f): Problem => ({
        key: `tasks:send:${f.path}`,
        path: f.path,
        severity: 'failed',
        message: `Could not sync the inbox tasks (${f.message}); nothing was written, and the next cycle tries again.`,
      })),
    ],
    notes: t.notices,
    requests: t.requests,
  };
}
