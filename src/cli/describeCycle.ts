// The terminal's lines for what a push or a pull did, in words: the documents named (up to a few,
// then a count), and what happened to each — a new folder is not "0 documents", a local delete is
// not "1 new".
import path from 'node:path';
import { BUILTIN_DIRS } from '../core/pull/layout.js';
import type { PullCycleResult } from '../sync/index.js';
import type { PushResult } from '../sync/index.js';
import type { DocumentTask } from '../sync/index.js';
import { count, nameList } from './format.js';

const stem = (p: string) => path.posix.basename(p).replace(/\.md$/, '');

/** What a push did to one document, in words. */
function pushedWhat(t: DocumentTask | undefined): string {
  const d = t?.decision;
  if (!d) return 'sent';
  if (d.create) return 'new';
  if (d.trash) return "deleted here: moved to the space's trash";
  const words: string[] = [];
  if (d.rename !== undefined) words.push(`renamed from "${t.record?.title ?? '?'}"`);
  if (d.move)
    words.push(
      d.rename !== undefined
        ? 'moved'
        : `moved from ${path.posix.dirname(t.record?.path ?? '') === '.' ? 'the top level' : `${path.posix.dirname(t.record!.path)}/`}`,
    );
  if (d.content === 'push' || d.content === 'merge' || d.content === 'create') words.push('edited');
  return words.join(' and ') || 'sent';
}

/** `Pushed: Roadmap (edited), folder Work/Ideas (new); 2 requests, 1 block written.` — or null when nothing was sent. */
export function describePush(push: PushResult): string | null {
  const o = push.outcome;
  if (!o || o.sent.length === 0) return null;
  const tasks = push.plan.tasks;
  const taskOf = (id: string, p: string) => tasks.find((t) => t.doc === id || t.record?.id === id) ?? tasks.find((t) => t.next.path === p);
  const items = o.documents.map((d) => {
    const t = taskOf(d.id, d.path);
    return `${t?.next.title ?? stem(d.path)} (${pushedWhat(t)})`;
  });
  const f = push.plan.folders;
  if (f) {
    items.push(...f.creates.map((c) => `folder ${c.path} (new)`));
    items.push(...f.renames.map((r) => `folder ${r.to} (renamed from ${r.from})`));
    items.push(...f.moves.map((m) => `folder ${m.to} (moved from ${m.from})`));
    items.push(...f.deletes.map((x) => `folder ${x.path} (deleted)`));
  }
  const writes = o.sent.filter((s) => s.method !== 'GET').length;
  const blocks = o.blocksWritten > 0 ? `, ${count(o.blocksWritten, 'block')} written` : '';
  return `Pushed: ${items.length > 0 ? nameList(items) : 'changes'}; ${count(writes, 'request')}${blocks}.`;
}

/**
 * `Pulled: 1 new, 2 updated (5 requests): Groceries (new), Quick idea and Roadmap (updated).` — or
 * null when the pull changed nothing here. A new file in Trash/ is a document deleted here (or in the
 * space) whose last version is kept there, not a new document.
 */
export function describePull(result: PullCycleResult): string | null {
  const trash = (p: string) => p.startsWith(`${BUILTIN_DIRS.trash}/`);
  const builtIn = new Set<string>(Object.values(BUILTIN_DIRS));
  const groups: Array<[string, string[]]> = [
    ['new', result.written.filter((w) => w.mode === 'new' && !trash(w.path)).map((w) => stem(w.path))],
    ['updated', result.written.filter((w) => w.mode !== 'new').map((w) => stem(w.path))],
    ['deleted, kept in Trash/', result.written.filter((w) => w.mode === 'new' && trash(w.path)).map((w) => stem(w.path))],
    [
      'moved',
      [
        ...result.moved.map((m) => `${stem(m.to)} to ${path.posix.dirname(m.to) === '.' ? 'the top level' : `${path.posix.dirname(m.to)}/`}`),
        ...result.folderMoves.map((m) => `folder ${m.from} to ${m.to}`),
      ],
    ],
    ["purged from the space's trash (files kept in .spacesync/purged/)", result.purged.map((p) => stem(p.from))],
    ['new folders', result.createdDirs.filter((d) => !builtIn.has(d) && !result.folderMoves.some((m) => m.to === d))],
    ['folders removed', result.removedDirs],
  ];
  const busy = groups.filter(([, names]) => names.length > 0);
  if (busy.length === 0) return null;
  const counts = busy.map(([kind, names]) => `${names.length} ${kind}`).join(', ');
  const named = busy.length === 1 ? nameList(busy[0]![1]) : busy.map(([kind, names]) => `${nameList(names, 2)} (${kind.replace(/ \(.*$/, '')})`).join(', ');
  return `Pulled: ${counts} (${count(result.requests, 'request')}): ${named}.`;
}
