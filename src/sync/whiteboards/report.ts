// The whiteboards' part of a cycle's report: scene files whose edits were sent, scene files written
// with the space's changes, boards whose scene file went with them; files held back as problems.
import path from 'node:path';
import type { Change, Problem, ReportPart } from '../../core/report/cycleReport.js';
import type { WhiteboardSyncResult } from './syncWhiteboards.js';

const title = (file: string) => path.posix.basename(file).replace(/\.excalidraw$/, '');

export function whiteboardsPart(w: WhiteboardSyncResult): ReportPart {
  const scene = (side: Change['side'], action: Change['action'], file: string, detail?: string): Change => ({
    kind: 'scene',
    side,
    action,
    path: file,
    title: title(file),
    ...(detail ? { detail } : {}),
  });
  return {
    changes: [
      ...w.sent.map((s) => scene('local', 'updated', s.file, `${s.elements} element${s.elements === 1 ? '' : 's'}`)),
      ...w.pulled.map((f) => scene('remote', 'updated', f)),
      ...w.removed.map((f) => scene('remote', 'deleted', f)),
    ],
    problems: [
      ...w.heldBack.map((h): Problem => ({ key: `scene:${h.file}`, path: h.file, severity: 'held', message: h.message })),
      ...w.failed.map((f): Problem => ({
        key: `scene:failed:${f.file}`,
        path: f.file,
        severity: 'failed',
        message: `The whiteboard file "${f.file}" was not synced: ${f.message}`,
      })),
    ],
    notes: w.conflicts.map(
      (c) =>
        `"${c.file}": an element was changed here and in the space; ${c.lost === 'local' ? "the space's version is kept, yours" : "yours is kept, the space's"} is in the version history.`,
    ),
    requests: w.requests,
  };
}
