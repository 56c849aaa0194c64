// The documents' and folders' part of a cycle's report: what a push sent (changed here) and what a
// pull brought (changed in the space), by title, with a move's old place and a rename's old title.
import path from 'node:path';
import type { Change, Problem, ReportPart } from '../../core/report/cycleReport.js';
import type { SyncContext } from '../context/index.js';
import type { PullCycleResult } from './pull/pullDocuments.js';
import type { PushResult } from './push/pushDocuments.js';

const stem = (p: string) => path.posix.basename(p).replace(/\.md$/, '');
const dir = (p: string) => (path.posix.dirname(p) === '.' ? '' : path.posix.dirname(p));
const inTrash = (p: string) => p.startsWith('Trash/');

/**
 * What the push sent, and what it held back, could not send or failed to send. `tableFiles`: files
 * whose collection tables the tables' push looked at and reported on: an output-only block of
 * theirs is that push's to say, not this one's.
 */
export function pushPart(push: PushResult, tableFiles: ReadonlySet<string> = new Set()): ReportPart {
  const changes: Change[] = [];
  const conflicts: Array<{ path: string; copy: string }> = [];
  const tasks = push.plan.tasks;
  for (const d of push.outcome?.documents ?? []) {
    const t = tasks.find((x) => x.doc === d.id || x.record?.id === d.id) ?? tasks.find((x) => x.next.path === d.path);
    const dec = t?.decision;
    const title = t?.next.title || stem(d.path);
    const doc = (action: Change['action'], extra: Partial<Change> = {}): void =>
      void changes.push({ kind: 'document', side: 'local', action, path: d.path, title, ...extra });
    if (d.conflictCopy) conflicts.push({ path: d.path, copy: d.conflictCopy });
    if (!dec) doc('updated');
    else if (dec.create) doc('created');
    else if (dec.trash) doc('deleted', { detail: "moved to the space's trash" });
    else if (dec.rewrite)
      continue; // nothing of it was sent: the space's version comes back (the pull says so)
    else {
      const edited = dec.content === 'push' || dec.content === 'merge';
      const was = t?.record;
      const more = [dec.rename !== undefined && dec.move ? 'moved' : '', edited && (dec.rename !== undefined || dec.move) ? 'edited' : ''].filter(Boolean);
      const detail = more.length > 0 ? { detail: `and ${more.join(' and ')}` } : {};
      if (dec.rename !== undefined) doc('renamed', { from: was?.title ?? '', ...detail });
      else if (dec.move) doc(was && inTrash(was.path) ? 'restored' : 'moved', { from: was?.path ?? '', ...detail });
      else if (edited || d.conflictCopy) doc('updated');
    }
  }
  const notes = push.outcome?.aborted
    ? ['Stopped before the end of the push: what was sent is recorded; the changes not sent yet stay in the files, and the next run sends them.']
    : [];
  const f = push.outcome ? push.plan.folders : null;
  if (f) {
    for (const c of f.creates) changes.push({ kind: 'folder', side: 'local', action: 'created', path: c.path, title: stem(c.path) });
    for (const r of f.renames) changes.push({ kind: 'folder', side: 'local', action: 'renamed', path: r.to, title: stem(r.to), from: r.from });
    for (const m of f.moves) changes.push({ kind: 'folder', side: 'local', action: 'moved', path: m.to, title: stem(m.to), from: m.from });
    for (const x of f.deletes) changes.push({ kind: 'folder', side: 'local', action: 'deleted', path: x.path, title: stem(x.path) });
  }
  const problems: Problem[] = [
    ...push.plan.heldBack.map((h): Problem => ({ key: `held:${h.reason}:${h.path}`, path: h.path, severity: 'held', message: h.message })),
    ...push.plan.problems
      .filter((p) => !(p.outputOnly && tableFiles.has(p.path)))
      .map((p): Problem => ({ key: `unsent:${p.path}:${p.message}`, path: p.path, severity: 'held', message: p.message })),
    ...(push.outcome?.failed ?? []).map((x): Problem => ({
      key: `send:${x.path}`,
      path: x.path,
      severity: 'failed',
      message: `Could not send the changes of ${x.path}: ${x.message} The document is read again and merged by the next cycle; nothing of it is lost.`,
    })),
  ];
  return { changes, conflicts, problems, notes, requests: push.requests, blocksWritten: push.outcome?.blocksWritten ?? 0 };
}

/** Backup mode wrote the space's version over a change made here: what the report (and the plan) say of it. */
export const overwriteDetail = (path: string): string =>
  `written over the change made here (backup mode; it is in the version history: spacesync history "${path}")`;

/**
 * What the pull brought. `first`: the mirror had no document before this pull, so the documents it
 * finds in the space's trash were not deleted now: they are written into Trash/ as they are.
 */
export function pullPart(ctx: SyncContext, pull: PullCycleResult, first: boolean): ReportPart {
  const changes: Change[] = [];
  const titleOf = (id: string, p: string) => ctx.journal.getDocument(id)?.title || stem(p);
  const moved = new Set(pull.moved.map((m) => m.id));
  for (const w of pull.written) {
    const title = titleOf(w.id, w.path);
    if (w.overwrote)
      changes.push({
        kind: 'document',
        side: 'remote',
        action: 'updated',
        path: w.path,
        title,
        detail: overwriteDetail(w.path),
      });
    else if (w.mode !== 'new') changes.push({ kind: 'document', side: 'remote', action: 'updated', path: w.path, title });
    else if (inTrash(w.path) && !first) changes.push({ kind: 'document', side: 'remote', action: 'deleted', path: w.path, title, detail: 'kept in Trash/' });
    else if (!moved.has(w.id))
      changes.push({
        kind: 'document',
        side: 'remote',
        action: 'created',
        path: w.path,
        title,
        ...(inTrash(w.path) ? { detail: "in the space's trash" } : {}),
      });
  }
  for (const m of pull.moved) {
    const title = titleOf(m.id, m.to);
    const action: Change['action'] = inTrash(m.to) ? 'deleted' : inTrash(m.from) ? 'restored' : dir(m.from) === dir(m.to) ? 'renamed' : 'moved';
    changes.push({
      kind: 'document',
      side: 'remote',
      action,
      path: m.to,
      title,
      from: action === 'renamed' ? stem(m.from) : m.from,
      ...(action === 'deleted' ? { detail: 'kept in Trash/' } : {}),
    });
  }
  for (const m of pull.folderMoves) {
    const action = dir(m.from) === dir(m.to) ? 'renamed' : 'moved';
    changes.push({ kind: 'folder', side: 'remote', action, path: m.to, title: stem(m.to), from: m.from });
  }
  const builtIn = new Set(['Unsorted', 'Templates', 'Trash', 'Daily Notes', 'Tasks']);
  for (const d of pull.createdDirs)
    if (!builtIn.has(d) && !pull.folderMoves.some((m) => m.to === d))
      changes.push({ kind: 'folder', side: 'remote', action: 'created', path: d, title: stem(d) });
  for (const d of pull.removedDirs) changes.push({ kind: 'folder', side: 'remote', action: 'deleted', path: d, title: stem(d) });
  for (const p of pull.purged)
    changes.push({
      kind: 'document',
      side: 'remote',
      action: 'purged',
      path: p.to ?? p.from,
      title: titleOf(p.id, p.from),
      from: p.from,
      detail: 'its file kept in .spacesync/purged/',
    });
  const problems: Problem[] = [
    ...pull.blocked.map((b): Problem => ({ key: `blocked:${b.path}`, path: b.path, severity: 'held', message: b.message })),
    ...pull.failed.map((f): Problem => ({
      key: `pull:${f.path}`,
      path: f.path,
      severity: 'failed',
      message: `Could not pull "${f.path}": ${f.message} It is pulled again by the next cycle.`,
    })),
  ];
  const notes = pull.aborted
    ? [
        `Stopped before the end: ${pull.written.length + pull.unchanged.length} of ${pull.remoteChanged.length} documents pulled; the next run goes on from there.`,
      ]
    : [];
  return { changes, problems, notes, requests: pull.requests };
}
