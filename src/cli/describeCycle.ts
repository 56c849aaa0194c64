// The terminal's lines for a cycle's report, in words: one line per side and kind of content that
// changed, naming what changed by its title (a few, then a count) and what happened to each; then
// conflicts, the problems that appeared and those that cleared (each said once, not at every poll).
import path from 'node:path';
import type { Change, CycleReport, Problem } from '../core/report/cycleReport.js';
import { count, indentedList, nameList, duration } from './format.js';
import type { OutageEvent } from '../sync/index.js';

const placeOf = (p: string) => (path.posix.dirname(p) === '.' ? 'the top level' : `${path.posix.dirname(p)}/`);
const quoted = (s: string) => `"${s}"`;

/** What happened to one document or folder, as the Pushed/Pulled lines say it. */
function documentWords(c: Change): string {
  const more = c.detail && c.detail.startsWith('and ') ? ` ${c.detail}` : '';
  switch (c.action) {
    case 'created':
      return c.side === 'remote' && c.detail ? `new, ${c.detail}` : 'new';
    case 'updated':
      return c.side === 'local' ? 'edited' : c.detail ? `updated, ${c.detail}` : 'updated';
    case 'renamed':
      return `renamed from "${c.from ?? ''}"${more}`;
    case 'moved':
      return c.side === 'local' ? `moved from ${placeOf(c.from ?? '')}${more}` : `moved from ${placeOf(c.from ?? '')} to ${placeOf(c.path)}`;
    case 'restored':
      return 'restored from the trash';
    case 'deleted':
      return c.side === 'local' ? "deleted here: moved to the space's trash" : `deleted, ${c.detail ?? 'kept in Trash/'}`;
    case 'purged':
      return "purged from the space's trash (files kept in .spacesync/purged/)";
    default:
      return c.action;
  }
}

const named = (c: Change) => (c.kind === 'folder' ? `folder ${c.path}` : c.title);

/** `Pushed: Roadmap (edited), folder Work/Ideas (new); 2 requests, 1 block written.` */
function pushedLine(changes: readonly Change[], r: CycleReport): string | null {
  if (changes.length === 0) return null;
  const items = changes.map((c) => `${named(c)} (${documentWords(c)})`);
  const blocks = r.blocksWritten > 0 ? `, ${count(r.blocksWritten, 'block')} written` : '';
  return `Pushed: ${nameList(items)}; ${count(r.requests, 'request')}${blocks}.`;
}

const ACTION_ORDER: readonly Change['action'][] = ['created', 'updated', 'renamed', 'moved', 'restored', 'deleted', 'purged'];
/** Documents before folders for each thing that happened; a document first written into the space's trash goes with the deletions. */
const rank = (c: Change) =>
  c.action === 'created' && c.detail ? 2 * ACTION_ORDER.indexOf('deleted') - 1 : 2 * ACTION_ORDER.indexOf(c.action) + (c.kind === 'folder' ? 1 : 0);

/** `Pulled: 1 new, 2 updated (5 requests): Groceries (new), Quick idea and Roadmap (updated).` */
function pulledLine(changes: readonly Change[], r: CycleReport): string | null {
  if (changes.length === 0) return null;
  const groups = new Map<string, string[]>();
  // The same order whatever order the documents were read in: by what happened, then by title.
  const ordered = [...changes].sort((a, b) => rank(a) - rank(b) || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  for (const c of ordered) {
    const words = c.kind === 'folder' ? (c.action === 'created' ? 'new folders' : `folders ${c.action}`) : documentWords(c);
    const key =
      c.action === 'renamed' || c.action === 'moved' ? (c.kind === 'folder' ? words : c.action) : c.action === 'created' && c.detail ? c.detail : words;
    const name = c.action === 'renamed' || (c.action === 'moved' && c.kind === 'document') ? `${named(c)} (${documentWords(c)})` : named(c);
    const group = groups.get(key);
    if (group) group.push(name);
    else groups.set(key, [name]);
  }
  const list = [...groups];
  const counts = list.map(([kind, names]) => `${names.length} ${kind}`).join(', ');
  const names =
    list.length === 1
      ? nameList(list[0]![1])
      : list.map(([kind, ns]) => (kind === 'renamed' || kind === 'moved' ? nameList(ns, 2) : `${nameList(ns, 2)} (${kind.replace(/,.*$/, '')})`)).join(', ');
  return `Pulled: ${counts} (${count(r.requests, 'request')}): ${names}.`;
}

const TASK_WORDS: Record<string, string> = { created: 'new', updated: 'edited', deleted: 'deleted', completed: 'done', reopened: 'reopened' };

/** The lines of the other kinds of content: tasks, assets, whiteboards, tables; each side apart. */
function otherLines(changes: readonly Change[]): string[] {
  const lines: string[] = [];
  const of = (kind: Change['kind'], side: Change['side']) => changes.filter((c) => c.kind === kind && c.side === side);
  const tasks = (side: Change['side'], head: string) => {
    const list = of('task', side);
    if (list.length > 0) lines.push(`${head}: ${nameList(list.map((c) => `${quoted(c.title)} (${TASK_WORDS[c.action] ?? c.action})`))}.`);
  };
  tasks('local', 'Inbox tasks sent');
  tasks('remote', 'Inbox tasks from the space');
  const uploaded = of('asset', 'local');
  if (uploaded.length > 0) lines.push(`Uploaded: ${nameList(uploaded.map((c) => `${c.title} (${path.posix.dirname(c.path)})`))}.`);
  const downloaded = of('asset', 'remote').filter((c) => c.action === 'downloaded');
  if (downloaded.length > 0) lines.push(`Downloaded: ${count(downloaded.length, 'asset')}: ${nameList(downloaded.map((c) => c.path))}.`);
  const scenes = (side: Change['side'], head: string) => {
    const list = of('scene', side);
    if (list.length > 0)
      lines.push(`${head}: ${nameList(list.map((c) => `${c.title} (${c.action === 'deleted' ? 'removed with its board' : (c.detail ?? c.action)})`))}.`);
  };
  scenes('local', 'Whiteboards sent');
  scenes('remote', 'Whiteboards from the space');
  const tables = of('table', 'local');
  if (tables.length > 0) lines.push(`Tables sent: ${nameList(tables.map((c) => `${c.title} in ${c.path}${c.detail ? ` (${c.detail})` : ''}`))}.`);
  return lines;
}

const keptHere = (p: Problem) => p.key.startsWith('held:backup:');

/** The settled problem as one line: the file it was about is in step again. */
function clearedLine(p: Problem): string {
  if (p.key.startsWith('refusal:')) return 'spacesync: the cycle refused before goes through now.';
  const what = p.path ? `"${p.path}"` : 'the folder';
  if (keptHere(p)) return `spacesync: ${what} is as the space has it again.`;
  return p.severity === 'held' ? `spacesync: ${what} is no longer held back.` : `spacesync: ${what} went through this time.`;
}

export interface ReportLines {
  out: string[];
  err: string[];
}

/**
 * The lines of a report. `problems`: the ones that appeared and cleared with it (all of the
 * report's appear when it is the only one, as in `sync --once`); `idle`: what to say when nothing
 * changed (null: nothing, as the daemon's quiet polls say).
 */
export function describeReport(r: CycleReport, problems: { appeared: readonly Problem[]; cleared: readonly Problem[] }, idle: string | null): ReportLines {
  const out: string[] = [];
  const err: string[] = [];
  const docs = (side: Change['side']) => r.changes.filter((c) => (c.kind === 'document' || c.kind === 'folder') && c.side === side);
  for (const line of [pushedLine(docs('local'), r), pulledLine(docs('remote'), r), ...otherLines(r.changes)]) if (line) out.push(line);
  if (r.conflicts.length > 0) {
    out.push(`${count(r.conflicts.length, 'conflict')}: the space's version stays in the file, yours is kept beside it (\`spacesync conflicts\` lists them):`);
    out.push(...indentedList(r.conflicts, (c) => `${c.path} → ${c.copy}`, { indent: '  ', max: 20 }));
  }
  for (const n of r.notes) out.push(n.startsWith('spacesync:') || /^[A-Z]/.test(n) ? n : `spacesync: ${n}`);
  for (const p of problems.appeared) {
    // A change kept here in backup mode is what the mode promises, not a warning.
    if (keptHere(p)) out.push(`spacesync: ${p.message}`);
    else err.push(p.severity === 'held' && !p.key.startsWith('refusal:') ? `spacesync: held back: ${p.message}` : `spacesync: ${p.message}`);
  }
  for (const p of problems.cleared) out.push(clearedLine(p));
  if (out.length === 0 && err.length === 0 && idle !== null) out.push(idle.replace('{requests}', count(r.requests, 'request')));
  return { out, err };
}

// The daemon's two lines about a space out of reach: one when it starts (what failed and what to
// check, and that edits are kept), one when it ends (how long it lasted, the edits that went out).
// The failed looks between them are the log file's, not the terminal's.
/** The line an outage event prints, with its stream; null for a look that failed while it lasts. */
export function describeOutage(e: OutageEvent): { stream: 'out' | 'err'; line: string } | null {
  if (e.kind === 'failed') return null;
  if (e.kind === 'started')
    return {
      stream: 'err',
      line: `spacesync: the space is unreachable: retrying every few seconds; edits are kept and sent when it is back. ${e.error.message}`,
    };
  const sent = e.sent > 0 ? `; ${count(e.sent, 'edit')} sent` : '';
  return { stream: 'out', line: `spacesync: the space is reachable again after ${duration(e.downMs)}${sent}.` };
}
