// What the whiteboards' slice says: its part of a cycle's report (scene files whose edits were sent,
// scene files written with the space's changes, boards whose scene file went with them; files held
// back as problems), and its part of the cycle's plan (the scene files edited here).
import path from 'node:path';
import type { Change, Problem, ReportPart } from '../../core/report/cycleReport.js';
import { readMirrorFile } from '../../mirror/index.js';
import type { SyncContext } from '../context/index.js';
import { WHITEBOARD_BASE, type WhiteboardRecord, type WhiteboardSyncResult } from './syncWhiteboards.js';

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

/** Scene files edited here: their boards would be sent (the file is rewritten only when the space changed the board too). */
export async function whiteboardsPlan(ctx: SyncContext): Promise<{ changes: Change[]; write: string[] }> {
  const changes: Change[] = [];
  for (const rec of Object.values(ctx.journal.statesWithPrefix<WhiteboardRecord>(WHITEBOARD_BASE))) {
    const now = await readMirrorFile(ctx.root, rec.file);
    if (now !== null && now.hash !== rec.fileHash) changes.push({ kind: 'scene', side: 'local', action: 'updated', path: rec.file, title: title(rec.file) });
  }
  return { changes, write: [] };
}
