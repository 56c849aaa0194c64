// The fewest requests that carry out a cycle's decisions, as data: `spacesync plan` prints them and
// the shell runs exactly them, in order. Ids the service gives only on creation are named by refs
// (`@ref:…`) until then; the shell resolves them from earlier answers (see refs.ts).
import { isTaskMarkdown, markdownEquals, sameTaskDates, splitTaskDates, type CardLayout, type NewBlock, type TaskDates } from '../../dialect/index.js';
import type { ChangeSet, MoveRun, NewBlockSpec } from '../merge/changeSet.js';
import { REF_PREFIX } from '../merge/changeSet.js';
import type { Destination, DocumentDecision } from './decideDocument.js';
import type { FolderDecisions } from './decideFolders.js';
import type { Anchor } from '../types.js';

export interface PlanStep {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the link: `/blocks`, `/documents/move`… */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Blocks this step reads or writes (the block budget). */
  blocks: number;
  /** One line for `spacesync plan`. */
  describe: string;
  /** The documents (ids or refs) this step changes. */
  docs: string[];
  /** Refs this step's answer names: `at` indexes the answer's items, then each item's `content` (empty: the answer itself). */
  yields?: Array<{ ref: string; at: number[] }>;
  /**
   * A step for several documents: the document of each item of its body's list (the edits, the
   * block ids, the document ids), so it can be sent without one that failed before it (narrowStep).
   */
  parts?: string[];
}

export interface DocumentWork {
  /** The document's id, or its ref when this plan creates it (see docRef). */
  doc: string;
  /** Its title or path, for the descriptions. */
  name: string;
  decision?: Pick<DocumentDecision, 'create' | 'rename' | 'move' | 'trash'>;
  changes?: ChangeSet;
}

export interface PlanInput {
  documents: readonly DocumentWork[];
  folders?: Pick<FolderDecisions, 'creates' | 'renames' | 'moves' | 'deletes'>;
  /** A folder's path for the descriptions (ids and refs). */
  folderName?: (idOrRef: string) => string | undefined;
}

export interface PlanOptions {
  /** Blocks at most per write request; larger writes are split (default 500). */
  maxBlocksPerRequest?: number;
}

export const REF = '@ref:';
export const docRef = (key: string) => `${REF}doc:${key}`;
/**
 * How a link in a block's markdown names a document this plan creates (`block://` + this): its ref
 * with the key percent-encoded, parentheses too, so no space or `)` cuts the link short; resolveStep
 * puts the id in once the document exists.
 */
export const docLinkRef = (key: string) => `${REF}doc:${encodeURIComponent(key).replace(/[()'!*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
/** A block ref of a change set, made unique across documents. */
export const blockRef = (doc: string, ref: string) => `${REF}block:${doc}:${ref}`;
export const isRef = (s: string) => s.startsWith(REF);

const DEFAULT_MAX_BLOCKS = 500;

function chunks<T>(items: readonly T[], size: number, weight: (t: T) => number = () => 1): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let n = 0;
  for (const it of items) {
    const w = weight(it);
    if (cur.length > 0 && n + w > size) {
      out.push(cur);
      cur = [];
      n = 0;
    }
    cur.push(it);
    n += w;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const treeSize = (s: NewBlockSpec): number => 1 + s.children.reduce((a, c) => a + treeSize(c), 0);

/** The position object of an anchor in a document. */
function positionOf(anchor: Anchor, doc: string, ref: (r: string) => string) {
  if ('after' in anchor) return { position: 'after', siblingId: anchor.after.startsWith(REF_PREFIX) ? ref(anchor.after) : anchor.after };
  const page = anchor.start === null ? doc : anchor.start.startsWith(REF_PREFIX) ? ref(anchor.start) : anchor.start;
  return { position: 'start', pageId: page };
}

/** A block to send: pages and cards with their new children; the type the dialect read for the rest. */
function newBlock(s: NewBlockSpec): NewBlock {
  if (s.kind === 'page' || s.kind === 'card') {
    const b: NewBlock = { type: 'page', markdown: s.markdown, content: s.children.map(newBlock) };
    if (s.kind === 'card') b.textStyle = 'card';
    if (s.kind === 'card' && s.cardLayout !== undefined) b.cardLayout = s.cardLayout;
    return s.unshown ? { ...b, ...s.unshown } : b;
  }
  // A task's dates go by PUT /tasks once it exists (taskDates); the service's markdown has none.
  const b: NewBlock = { type: s.type as NewBlock['type'], markdown: splitTaskDates(s.markdown).markdown };
  // A restored block's fields the line does not show (its colour, a rich URL's own fields) go with it.
  return s.unshown ? { ...b, ...s.unshown } : b;
}

function yieldsOf(blocks: readonly NewBlockSpec[], ref: (r: string) => string): Array<{ ref: string; at: number[] }> {
  const out: Array<{ ref: string; at: number[] }> = [];
  const walk = (list: readonly NewBlockSpec[], at: number[]) =>
    list.forEach((s, i) => {
      out.push({ ref: ref(s.ref), at: [...at, i] });
      walk(s.children, [...at, i]);
    });
  walk(blocks, []);
  return out;
}

function destinationBody(to: Destination) {
  return 'folderId' in to ? { folderId: to.folderId } : { destination: to.location };
}

/** What planSync works on: the input, the request size, the names for descriptions, and the steps so far (in the order they run). */
interface PlanPass {
  input: PlanInput;
  max: number;
  folders: NonNullable<PlanInput['folders']>;
  steps: PlanStep[];
  folderName: (id: string) => string;
  where: (to: Destination) => string;
}

export function planSync(input: PlanInput, opts: PlanOptions = {}): PlanStep[] {
  const folderName = (id: string) => input.folderName?.(id) ?? id;
  const p: PlanPass = {
    input,
    max: opts.maxBlocksPerRequest ?? DEFAULT_MAX_BLOCKS,
    folders: input.folders ?? { creates: [], renames: [], moves: [], deletes: [] },
    steps: [],
    folderName,
    where: (to) => ('folderId' in to ? `folder "${folderName(to.folderId)}"` : to.location === 'unsorted' ? 'Unsorted' : 'Templates'),
  };
  for (const step of [createFolders, createDocuments, moveDocuments, editBlocks, placeBlocks, setTaskDates, deleteBlocks, trashDocuments, tidyFolders]) step(p);
  return p.steps;
}

/** Folders to create, one request per depth. Invariant: a child folder is created in a later request than its parent, whose id it needs. */
function createFolders(p: PlanPass): void {
  const byDepth = new Map<number, typeof p.folders.creates>();
  for (const c of p.folders.creates) {
    const depth = c.path.split('/').length;
    const had = byDepth.get(depth);
    if (had) had.push(c);
    else byDepth.set(depth, [c]);
  }
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const list = byDepth.get(depth)!;
    p.steps.push({
      method: 'POST',
      path: '/folders',
      blocks: 0,
      docs: [],
      body: { folders: list.map((c) => (c.parent === null ? { name: c.name } : { name: c.name, parentFolderId: c.parent })) },
      describe: `POST /folders: create ${list.map((c) => `"${c.path}"`).join(', ')}`,
      yields: list.map((c, i) => ({ ref: c.ref, at: [i] })),
    });
  }
}

/** Documents to create, one request per destination. Invariant: every new document exists before a step sends its content (daily notes come into being with their content instead). */
function createDocuments(p: PlanPass): void {
  const creates = new Map<string, { to: Destination; docs: DocumentWork[] }>();
  for (const w of p.input.documents) {
    const c = w.decision?.create;
    if (!c || !('title' in c)) continue;
    const key = JSON.stringify(c.destination);
    const entry = creates.get(key) ?? { to: c.destination, docs: [] };
    entry.docs.push(w);
    creates.set(key, entry);
  }
  for (const { to, docs } of creates.values()) {
    p.steps.push({
      method: 'POST',
      path: '/documents',
      blocks: 0,
      docs: docs.map((w) => w.doc),
      body: {
        documents: docs.map((w) => ({ title: (w.decision!.create as { title: string }).title })),
        ...('folderId' in to || to.location !== 'unsorted' ? { destination: destinationBody(to) } : {}),
      },
      describe: `POST /documents: create ${docs.map((w) => `"${w.name}"`).join(', ')} in ${p.where(to)}`,
      yields: docs.map((w, i) => ({ ref: w.doc, at: [i] })),
    });
  }
}

/** Moves and restores of documents, one request per destination. Invariant: each document is moved once, a renamed folder's documents with it, before its old folder is deleted. */
function moveDocuments(p: PlanPass): void {
  const moves = new Map<string, { to: Destination; ids: string[]; names: string[] }>();
  const addMove = (to: Destination, id: string, name: string) => {
    const key = JSON.stringify(to);
    const entry = moves.get(key) ?? { to, ids: [], names: [] };
    if (!entry.ids.includes(id)) {
      entry.ids.push(id);
      entry.names.push(name);
    }
    moves.set(key, entry);
  };
  for (const w of p.input.documents) if (w.decision?.move) addMove(w.decision.move, w.doc, `"${w.name}"`);
  for (const r of p.folders.renames)
    for (const id of r.documentIds)
      addMove({ folderId: r.ref }, id, p.input.documents.find((w) => w.doc === id) ? `"${p.input.documents.find((w) => w.doc === id)!.name}"` : id);
  for (const { to, ids, names } of moves.values()) {
    p.steps.push({
      method: 'PUT',
      path: '/documents/move',
      blocks: 0,
      docs: ids,
      parts: ids,
      body: { documentIds: ids, destination: destinationBody(to) },
      describe: `PUT /documents/move: ${names.join(', ')} to ${p.where(to)}`,
    });
  }
}

/** Every edited block and renamed title of every document in PUT /blocks requests. Invariant: no request holds more than the largest block count the service takes. */
function editBlocks(p: PlanPass): void {
  const edits: Array<{ id: string; markdown: string; doc: string; what: string; cardLayout?: CardLayout }> = [];
  for (const w of p.input.documents) {
    if (w.decision?.rename !== undefined && !isRef(w.doc))
      edits.push({ id: w.doc, markdown: w.decision.rename, doc: w.doc, what: `rename "${w.name}" to "${w.decision.rename}"` });
    for (const e of w.changes?.edits ?? []) {
      // A task line whose text is the same but for its dates sends no markdown: the dates go by PUT /tasks.
      const now = splitTaskDates(e.markdown).markdown;
      const was = splitTaskDates(e.was).markdown;
      if (!e.cardLayout && markdownEquals(now, was)) continue;
      edits.push({ id: e.id, markdown: now, doc: w.doc, what: '', ...(e.cardLayout ? { cardLayout: e.cardLayout } : {}) });
    }
  }
  for (const part of chunks(edits, p.max)) {
    const docs = [...new Set(part.map((e) => e.doc))];
    const renames = part.filter((e) => e.what).map((e) => e.what);
    const blocks = part.filter((e) => !e.what).length;
    const names = docs.map((d) => `"${p.input.documents.find((w) => w.doc === d)!.name}"`).join(', ');
    p.steps.push({
      method: 'PUT',
      path: '/blocks',
      blocks: part.length,
      docs,
      parts: part.map((e) => e.doc),
      body: { blocks: part.map((e) => (e.cardLayout ? { id: e.id, markdown: e.markdown, cardLayout: e.cardLayout } : { id: e.id, markdown: e.markdown })) },
      describe: `PUT /blocks: ${[blocks ? `edit ${plural(blocks, 'block')} in ${names}` : '', ...renames].filter(Boolean).join('; ')}`,
    });
  }
}

/** Per document: moves, inserts (one per contiguous run, a long run in parts), then moves into pages created just now. Invariant: a block is inserted or moved only after the block or page it is anchored to exists. */
function placeBlocks(p: PlanPass): void {
  for (const w of p.input.documents) {
    const cs = w.changes;
    if (!cs) continue;
    const ref = (r: string) => blockRef(w.doc, r);
    const daily = w.decision?.create && 'dailyNoteDate' in w.decision.create ? w.decision.create.dailyNoteDate : undefined;
    const move = (m: MoveRun) => {
      for (const ids of chunks(m.ids, p.max)) {
        p.steps.push({
          method: 'PUT',
          path: '/blocks/move',
          blocks: ids.length,
          docs: [w.doc],
          body: { blockIds: ids, position: positionOf(m.anchor, w.doc, ref) },
          describe: `PUT /blocks/move: move ${plural(ids.length, 'block')} ${'after' in m.anchor ? 'after another' : 'to the start of its page'} in "${w.name}"`,
        });
      }
    };
    cs.moves.forEach(move);
    for (const run of cs.inserts) {
      // A long run goes in parts, each after the last block of the part before.
      let anchor: Anchor = run.anchor;
      for (const part of chunks(run.blocks, p.max, treeSize)) {
        const position = daily && 'start' in anchor && anchor.start === null ? { position: 'end', date: daily } : positionOf(anchor, w.doc, ref);
        const size = part.reduce((a, s) => a + treeSize(s), 0);
        p.steps.push({
          method: 'POST',
          path: '/blocks',
          blocks: size,
          docs: [w.doc],
          body: { blocks: part.map(newBlock), position },
          describe: `POST /blocks: insert ${plural(size, 'block')} ${'after' in anchor ? 'after another' : 'at the start'} in "${w.name}"${daily ? ` (the daily note of ${daily})` : ''}`,
          yields: yieldsOf(part, ref),
        });
        anchor = { after: part[part.length - 1]!.ref };
      }
    }
    cs.lateMoves.forEach(move);
    if (daily && cs.inserts.length > 0) {
      p.steps.push({
        method: 'GET',
        path: '/blocks',
        query: { date: daily, maxDepth: '0' },
        blocks: 1,
        docs: [w.doc],
        describe: `GET /blocks: read the id of the daily note of ${daily}`,
        yields: [{ ref: w.doc, at: [] }],
      });
    }
  }
}

/** The `taskInfo` of PUT /tasks that turns the dates `was` into `now`: changed dates only, null clears one. */
function dateChange(now: TaskDates, was: TaskDates): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const k of ['scheduleDate', 'deadlineDate'] as const) if ((now[k] ?? '') !== (was[k] ?? '')) out[k] = now[k] ?? null;
  return out;
}

/**
 * Task dates added, changed or removed in the file (edited task lines, and new task lines once
 * created) in PUT /tasks requests. Invariant: runs after the edits and inserts, so every task it
 * names exists and is a task; a line that stopped being a task sends no dates.
 */
function setTaskDates(p: PlanPass): void {
  const updates: Array<{ id: string; doc: string; taskInfo: Record<string, string | null> }> = [];
  for (const w of p.input.documents) {
    for (const e of w.changes?.edits ?? []) {
      const now = splitTaskDates(e.markdown);
      const was = isTaskMarkdown(e.was) ? splitTaskDates(e.was) : {};
      if (!isTaskMarkdown(e.markdown) || sameTaskDates(now, was)) continue;
      updates.push({ id: e.id, doc: w.doc, taskInfo: dateChange(now, was) });
    }
    const walk = (list: readonly NewBlockSpec[]) => {
      for (const s of list) {
        if (s.kind === 'block') {
          const dates = splitTaskDates(s.markdown);
          if (dates.scheduleDate !== undefined || dates.deadlineDate !== undefined)
            updates.push({ id: blockRef(w.doc, s.ref), doc: w.doc, taskInfo: dateChange(dates, {}) });
        }
        walk(s.children);
      }
    };
    for (const run of w.changes?.inserts ?? []) walk(run.blocks);
  }
  for (const part of chunks(updates, p.max)) {
    const docs = [...new Set(part.map((u) => u.doc))];
    p.steps.push({
      method: 'PUT',
      path: '/tasks',
      blocks: part.length,
      docs,
      parts: part.map((u) => u.doc),
      body: { tasksToUpdate: part.map((u) => ({ id: u.id, taskInfo: u.taskInfo })) },
      describe: `PUT /tasks: set the dates of ${plural(part.length, 'task')} in ${docs.map((d) => `"${p.input.documents.find((w) => w.doc === d)!.name}"`).join(', ')}`,
    });
  }
}

/** Deleted blocks of every document in DELETE /blocks. Invariant: deletes come after every insert and edit, so an interrupted push leaves text behind, never loses it. */
function deleteBlocks(p: PlanPass): void {
  const deletes = p.input.documents.flatMap((w) =>
    (w.changes?.deletes ?? []).map((id) => ({ id, doc: w.doc, weight: w.changes!.removedBlocks / w.changes!.deletes.length })),
  );
  for (const part of chunks(deletes, p.max)) {
    const docs = [...new Set(part.map((d) => d.doc))];
    p.steps.push({
      method: 'DELETE',
      path: '/blocks',
      blocks: Math.round(part.reduce((a, d) => a + d.weight, 0)),
      docs,
      parts: part.map((d) => d.doc),
      body: { blockIds: part.map((d) => d.id) },
      describe: `DELETE /blocks: delete ${plural(part.length, 'block')} in ${docs.map((d) => `"${p.input.documents.find((w) => w.doc === d)!.name}"`).join(', ')}`,
    });
  }
}

/** Documents to the trash, in one request. Invariant: only documents that exist on the service (no refs) are trashed. */
function trashDocuments(p: PlanPass): void {
  const trashed = p.input.documents.filter((w) => w.decision?.trash && !isRef(w.doc));
  if (trashed.length > 0) {
    p.steps.push({
      method: 'DELETE',
      path: '/documents',
      blocks: 0,
      docs: trashed.map((w) => w.doc),
      parts: trashed.map((w) => w.doc),
      body: { documentIds: trashed.map((w) => w.doc) },
      describe: `DELETE /documents: move ${trashed.map((w) => `"${w.name}"`).join(', ')} to the trash`,
    });
  }
}

/** Folders: moves, the subfolders of renamed ones, then deletes (the renamed ones' old folders too). Invariant: a folder is deleted after everything it held has moved out, deepest first. */
function tidyFolders(p: PlanPass): void {
  const folderMoves = new Map<string, string[]>();
  const addFolderMove = (parent: string | null, id: string) => {
    const key = parent ?? '';
    const had = folderMoves.get(key);
    if (had) had.push(id);
    else folderMoves.set(key, [id]);
  };
  for (const m of p.folders.moves) addFolderMove(m.parent, m.id);
  for (const r of p.folders.renames) for (const id of r.subfolderIds) addFolderMove(r.ref, id);
  for (const [parent, ids] of folderMoves) {
    p.steps.push({
      method: 'PUT',
      path: '/folders/move',
      blocks: 0,
      docs: [],
      body: { folderIds: ids, destination: parent === '' ? 'root' : { parentFolderId: parent } },
      describe: `PUT /folders/move: ${ids.map((id) => `"${p.folderName(id)}"`).join(', ')} ${parent === '' ? 'to the top level' : `into "${p.folderName(parent)}"`}`,
    });
  }
  const folderDeletes = [
    ...p.folders.renames.map((r) => ({ id: r.id, path: r.from, renamed: r.to })),
    ...p.folders.deletes.map((d) => ({ ...d, renamed: undefined as string | undefined })),
  ].sort((a, b) => b.path.split('/').length - a.path.split('/').length);
  if (folderDeletes.length > 0) {
    p.steps.push({
      method: 'DELETE',
      path: '/folders',
      blocks: 0,
      docs: [],
      body: { folderIds: folderDeletes.map((d) => d.id) },
      describe: `DELETE /folders: ${folderDeletes.map((d) => (d.renamed ? `"${d.path}" (renamed to "${d.renamed}": the API has no folder rename, so a new folder was created and its contents moved there)` : `"${d.path}"`)).join(', ')}`,
    });
  }
}
