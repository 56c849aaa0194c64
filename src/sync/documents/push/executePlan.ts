// Carries out a push plan: conflict copies first, then each step in order with its refs resolved
// from earlier answers, an intent recorded before it is sent. Folders and created documents are
// recorded as their answers come (so a repeated run never creates them twice); each document is
// recorded once all its steps went through. A step that fails ends only the documents in it (their
// intents stay: the next cycle reads them again and merges): their later steps are not sent, and a
// later step shared with other documents goes without their part; steps that need what it would
// have created are left for the next cycle.
import { blocksOfAnswer, datesOfAnswer } from '../../../core/merge/baseAfter.js';
import { markdownOf } from '../../../core/pull/flattenRemote.js';
import { narrowStep } from '../../../core/push/narrowStep.js';
import { isRef, type PlanStep } from '../../../core/push/plan.js';
import { readYields, resolveStep } from '../../../core/push/refs.js';
import type { Block } from '../../../dialect/index.js';
import { isSpacesyncError, type SpacesyncError } from '../../../errors.js';
import { FILE_ONLY } from '../../../log.js';
import { type SyncContext, isStopped, isPerDocumentError, UNSENT } from '../../context/index.js';
import { finalizeDocument, writeConflictCopy, type DocumentOutcome, type RunState } from './finalizeDocument.js';
import type { DocumentTask, PushPlan } from './PushPlan.js';
import { changesRemoteBlocks, recordRemoteHistory } from './recordRemoteHistory.js';
import { forgetCounts } from '../pull/pullState.js';
import { currentListing } from './currentListing.js';
import type { Journal, ListingEntry } from '../../../journal/index.js';
import type { CreateBlocksInput, CreateDocumentsInput, DocumentDestination, FolderDestination, Position, TaskUpdate } from '../../../client/index.js';

export interface PushOutcome {
  /** Steps sent, in order, refs resolved. */
  sent: PlanStep[];
  documents: DocumentOutcome[];
  failed: Array<{ path: string; code: string; message: string }>;
  /** Blocks the sent steps wrote. */
  blocksWritten: number;
  /** Documents left out because the space changed them while the push waited (paths): planned again at once. */
  stale: string[];
  /** Documents whose conflicting version was kept as a copy. */
  conflicts: number;
  /** Stopped by a signal between steps. */
  aborted: boolean;
}

const opOf = (s: PlanStep) => `${s.method} ${s.path}`;

/** Moves what the journal still has under a renamed folder's old path to its new one, unless a path there is taken. */
function followRename(journal: Journal, r: { from: string; to: string }): void {
  const under = (p: string) => p.startsWith(`${r.from}/`);
  const moved = (p: string) => r.to + p.slice(r.from.length);
  const folders = journal.listFolders();
  const documents = journal.listDocuments();
  if (!folders.some((f) => under(f.path))) return;
  const taken = new Set([...folders.map((f) => f.path), ...documents.map((d) => d.path)]);
  if ([...folders, ...documents].some((x) => under(x.path) && taken.has(moved(x.path)))) return;
  journal.movePathPrefix(r.from, r.to);
}

export interface ExecuteOptions {
  /** The listing the plan was made from (each document's lastModifiedAt then), and when it was taken. */
  listing?: { takenAt: string; items: ReadonlyMap<string, ListingEntry> };
}

/**
 * Past this age, or after a wait (a budget, a Retry-After, a retry), the space is listed again
 * before a document's next write: an edit the space gets in between is overwritten (the API has no
 * conditional write), so the window is kept short.
 */
export const RECHECK_AFTER_MS = 1_000;

export async function executePlan(ctx: SyncContext, plan: PushPlan, opts: ExecuteOptions = {}): Promise<PushOutcome> {
  return new PlanRun(ctx, plan, opts).execute();
}

/** A step that did not go through: the run stops there, or goes on with the next step. */
type Halt = 'stop' | 'next';

/** One run of a plan: the answers so far (refs resolved, titles, intents) and the documents that failed. */
class PlanRun {
  private readonly out: PushOutcome = { sent: [], documents: [], failed: [], stale: [], blocksWritten: 0, conflicts: 0, aborted: false };
  private readonly run: RunState = { ids: new Map(), answered: new Map(), titles: new Map(), intents: new Map() };
  private readonly failed = new Set<string>();
  private readonly taskOf: Map<string, DocumentTask>;
  /** Documents whose blocks, as the space held them, went to the history already. */
  private readonly historied = new Set<string>();
  private readonly staleness: ReturnType<typeof watchStaleness> | null;

  constructor(
    private readonly ctx: SyncContext,
    private readonly plan: PushPlan,
    opts: ExecuteOptions,
  ) {
    this.taskOf = new Map(plan.tasks.map((t) => [t.doc, t]));
    this.staleness = opts.listing ? watchStaleness(ctx, plan, opts.listing) : null;
  }

  async execute(): Promise<PushOutcome> {
    const { ctx, plan, out } = this;
    const copies = new Map<DocumentTask, string>();
    for (const t of plan.tasks) {
      // A block changed differently on both sides, or the title (the copy's name keeps the file's title).
      if (t.local && ((t.file?.merge.conflicts.length ?? 0) > 0 || t.decision.titleConflict))
        copies.set(t, await writeConflictCopy(ctx, t.local.path, t.local.text));
    }
    for (const [index, planned] of plan.steps.entries()) if ((await this.step(index, planned)) === 'stop') break;
    for (const t of plan.tasks) {
      if (this.failed.has(t.doc) || (isRef(t.doc) && !this.run.ids.has(t.doc))) continue;
      const o = await finalizeDocument(ctx, t, this.run, copies.get(t) ?? null);
      out.documents.push(o);
      if (o.conflictCopy) out.conflicts++;
    }
    ctx.logger.info({ steps: out.sent.length, documents: out.documents.length, failed: out.failed.length, conflicts: out.conflicts }, 'pushed');
    return out;
  }

  private pathOf(doc: string): string {
    return this.taskOf.get(doc)?.next.path ?? doc;
  }

  private resolve(x: string | null): string | null {
    return x === null ? null : (this.run.ids.get(x) ?? x);
  }

  /**
   * Stopped: the documents of the steps not sent are not recorded (their files stay pending, and
   * their intents, if any, make the next run read them again and merge).
   */
  private stop(index: number): 'stop' {
    this.out.aborted = true;
    for (const p of this.plan.steps.slice(index)) p.docs.forEach((d) => this.failed.add(d));
    return 'stop';
  }

  private async step(index: number, planned: PlanStep): Promise<Halt | void> {
    if (this.ctx.signal?.aborted) return this.stop(index);
    if ((await this.leaveStale(index, planned)) === 'stop') return 'stop';
    const ready = this.ready(planned);
    if (ready === null) return 'next';
    const { step, s } = ready;
    const stepIntents = this.noteIntents(step, s);
    const answer = await this.send(index, step, s, stepIntents);
    if (answer === 'stop' || answer === 'next') return answer;
    this.learn(step, s, answer.value, stepIntents);
  }

  /**
   * The service has no conditional write: after a wait, a document the space changed meanwhile is
   * left out (its file stays unrecorded) and planned again against what the space holds now.
   */
  private async leaveStale(index: number, planned: PlanStep): Promise<Halt | void> {
    let stale: string[];
    try {
      stale = (await this.staleness?.check(planned, this.plan.steps.slice(index), this.failed)) ?? [];
    } catch (e) {
      if (!isStopped(this.ctx, e)) throw e;
      return this.stop(index);
    }
    for (const d of stale) {
      this.failed.add(d);
      this.out.stale.push(this.pathOf(d));
      this.ctx.logger.info(
        { doc: d, path: this.pathOf(d) },
        `${this.pathOf(d)} changed in the space while the push waited: it is merged again instead of overwritten`,
      );
    }
  }

  /** The step without the documents that failed before it (`step`), and as it is sent, its refs resolved (`s`); null when none of it can go. */
  private ready(planned: PlanStep): { step: PlanStep; s: PlanStep } | null {
    // When it cannot be split, none of its documents goes on.
    const step = narrowStep(planned, this.failed);
    if (step === null) {
      planned.docs.forEach((d) => this.failed.add(d));
      return null;
    }
    const resolved = resolveStep(step, this.run.ids);
    if (resolved.ok) return { step, s: resolved.step };
    step.docs.forEach((d) => this.failed.add(d));
    // A folder step names no document: say so, rather than let a folder change vanish unsent.
    if (step.docs.length === 0)
      this.ctx.logger.warn(
        { step: `${step.method} ${step.path}`, missing: resolved.missing },
        `${step.method} ${step.path} was not sent: it needs a folder no earlier step created (${resolved.missing.join(', ')}); the next full scan decides it again`,
      );
    return null;
  }

  /** The history of the blocks about to be overwritten and the step's intents, in one transaction: one write to disk before the request leaves. */
  private noteIntents(step: PlanStep, s: PlanStep): number[] {
    const { journal } = this.ctx;
    const folderPaths = (step.yields ?? []).map((y) => this.plan.folders?.creates.find((c) => c.ref === y.ref)?.path ?? '');
    const payload = {
      step: { method: s.method, path: s.path, body: s.body, query: s.query },
      paths: step.docs.length ? step.docs.map((d) => this.pathOf(d)) : folderPaths,
      // What each file held: a file moved before its id is written into it is still found (resolveIntents).
      ...(opOf(s) === 'POST /documents' ? { hashes: step.docs.map((d) => this.taskOf.get(d)?.local?.hash ?? null) } : {}),
    };
    // Blocks about to be overwritten or deleted: as the space held them, they go to the history first.
    const fresh =
      s.path === '/blocks' && (s.method === 'PUT' || s.method === 'DELETE')
        ? step.docs.map((d) => this.taskOf.get(d)).filter((t): t is DocumentTask => !!t && !this.historied.has(t.doc) && changesRemoteBlocks(t))
        : [];
    const stepIntents: number[] = [];
    journal.transaction(() => {
      fresh.forEach((t) => recordRemoteHistory(this.ctx, t, this.requestsOf(t.doc)));
      if (step.docs.length === 0) stepIntents.push(journal.addIntent({ docId: null, op: opOf(s), payload }));
      for (const d of step.docs) {
        const i = journal.addIntent({ docId: isRef(d) && !this.run.ids.has(d) ? null : this.resolve(d), op: opOf(s), payload });
        stepIntents.push(i);
        this.run.intents.set(d, [...(this.run.intents.get(d) ?? []), i]);
      }
    });
    fresh.forEach((t) => this.historied.add(t.doc));
    return stepIntents;
  }

  /** The block writes of the plan that name the document, for its history. */
  private requestsOf(doc: string): string {
    const writes = this.plan.steps.filter((p) => p.docs.includes(doc) && p.path === '/blocks' && (p.method === 'PUT' || p.method === 'DELETE'));
    return [...new Set(writes.map(opOf))].join(', ');
  }

  /** Sends the step; its answer, or how the run goes on when it did not go through. */
  private async send(index: number, step: PlanStep, s: PlanStep, stepIntents: number[]): Promise<Halt | { value: unknown }> {
    const { ctx } = this;
    try {
      return { value: await sendStep(ctx, s) };
    } catch (e) {
      if (isStopped(ctx, e)) {
        // Dropped before it was sent: nothing of this step happened. When an earlier try may have
        // been applied, its intents stay: the next run reads those documents again and merges.
        if ((e as SpacesyncError).details?.mayHaveApplied !== true) ctx.journal.transaction(() => stepIntents.forEach((i) => ctx.journal.clearIntent(i)));
        return this.stop(index);
      }
      // A delete of what is gone already went through.
      if (isSpacesyncError(e, 'not_found') && s.method === 'DELETE') return { value: undefined };
      if (!isPerDocumentError(e) && !isSpacesyncError(e, 'not_found')) throw e;
      const err = e as { code: string; message: string };
      step.docs.forEach((d) => this.failed.add(d));
      this.out.failed.push({ path: step.docs.length ? step.docs.map((d) => this.pathOf(d)).join(', ') : step.describe, code: err.code, message: err.message });
      ctx.logger.warn({ ...FILE_ONLY, op: opOf(s), docs: s.docs, code: err.code }, err.message); // reported with the push
      return 'next';
    }
  }

  /** What the run learns from an answer: the ids it gave, the blocks it wrote; the journal records it. */
  private learn(step: PlanStep, s: PlanStep, answer: unknown, stepIntents: number[]): void {
    const { out, run } = this;
    out.sent.push(s);
    this.staleness?.wrote(step.docs);
    out.blocksWritten += s.method === 'GET' ? 0 : s.blocks;
    const yields = readYields(step, answer);
    for (const [ref, id] of yields.ids) run.ids.set(ref, id);
    // A document whose new blocks the answer does not name is read again next cycle.
    for (const d of step.docs) if (yields.missing.length > 0) this.failed.add(d);
    if (s.path === '/tasks') datesOfAnswer(answer, run.answered);
    else for (const [id, md] of blocksOfAnswer(answer)) run.answered.set(id, md);
    this.ctx.journal.transaction(() => this.record(step, s, answer, stepIntents));
  }

  /** What the journal learns from one answer, with the clearing of the intents that need nothing more. */
  private record(step: PlanStep, s: PlanStep, answer: unknown, stepIntents: number[]): void {
    const { journal } = this.ctx;
    const key = opOf(s);
    this.recordFolders(key, s);
    // Documents the step names that this push has no file for (the service's own, carried along a folder rename).
    for (const d of step.docs) {
      if (this.taskOf.has(d)) continue;
      (this.run.intents.get(d) ?? []).forEach((i) => journal.clearIntent(i));
      this.run.intents.delete(d);
    }
    if (key === 'POST /folders' || key === 'PUT /folders/move' || key === 'DELETE /folders') {
      stepIntents.forEach((i) => journal.clearIntent(i)); // folder steps name no document
    } else if (key === 'POST /documents' || key === 'GET /blocks') {
      this.recordCreated(key, step, answer, stepIntents);
    }
    // Block writes and document moves are recorded with their documents.
  }

  private recordFolders(key: string, s: PlanStep): void {
    const { journal } = this.ctx;
    const folders = this.plan.folders;
    if (key === 'POST /folders' && folders) {
      for (const c of folders.creates) {
        const id = this.run.ids.get(c.ref);
        if (id) journal.upsertFolder({ id, name: c.name, parentId: this.resolve(c.parent), path: c.path, documentCount: 0 });
      }
    } else if (key === 'PUT /folders/move' && folders) {
      this.recordFolderMoves(new Set((s.body as { folderIds: string[] }).folderIds));
    } else if (key === 'DELETE /folders') {
      const ids = (s.body as { folderIds: string[] }).folderIds;
      // What each held when the service deleted it went to its parent (Unsorted for a top-level
      // one), documents the space put there meanwhile included: those containers are listed again.
      const deleted = new Set(ids);
      const heirOf = (id: string): string => {
        let parent = journal.getFolder(id)?.parentId ?? null;
        while (parent !== null && deleted.has(parent)) parent = journal.getFolder(parent)?.parentId ?? null;
        return parent ?? 'unsorted';
      };
      forgetCounts(journal, ids.map(heirOf));
      for (const id of ids) {
        journal.deleteFolder(id);
        // A folder renamed here: what the journal still has under its old path (a subfolder the space
        // moved elsewhere meanwhile, so this push did not carry it) is where the rename took its
        // directory; the pull brings the service's move from there. Left at the old path, its
        // directory would stay behind under the new name and come back as a folder of its own.
        const r = folders?.renames.find((x) => x.id === id);
        if (r) followRename(journal, r);
      }
    }
  }

  private recordFolderMoves(moved: ReadonlySet<string>): void {
    const { journal } = this.ctx;
    const folders = this.plan.folders!;
    for (const m of folders.moves) {
      if (!moved.has(m.id)) continue;
      const rec = journal.getFolder(m.id);
      journal.movePathPrefix(m.from, m.to);
      if (rec) journal.upsertFolder({ ...rec, parentId: this.resolve(m.parent), path: m.to });
    }
    for (const r of folders.renames) {
      const parent = this.resolve(r.ref);
      for (const sub of r.subfolderIds) {
        const rec = journal.getFolder(sub);
        // A subfolder the service moved into the renamed folder while the mirror has it deeper, where
        // an earlier move of this step already carried it: it keeps that path and its parent, and
        // the pull brings the service's move (cut at the old path's length, its path would be garbage).
        if (!moved.has(sub) || !rec || !(rec.path === r.from || rec.path.startsWith(`${r.from}/`))) continue;
        const to = r.to + rec.path.slice(r.from.length);
        journal.movePathPrefix(rec.path, to);
        journal.upsertFolder({ ...rec, parentId: parent, path: to });
      }
    }
  }

  /** A created document is recorded at once, so a run stopped now never creates it again. */
  private recordCreated(key: string, step: PlanStep, answer: unknown, stepIntents: number[]): void {
    const { journal } = this.ctx;
    const { run } = this;
    for (const d of step.docs) {
      const id = run.ids.get(d);
      const t = this.taskOf.get(d);
      if (!id || !t) continue;
      if (key === 'GET /blocks') run.titles.set(id, markdownOf(answer as Block));
      if (journal.getDocument(id)) continue;
      // A file whose document the space purged becomes a new document: the old record gives up the path.
      if (t.record && t.record.id !== id) journal.deleteDocument(t.record.id);
      journal.upsertDocument({
        id,
        path: t.next.path,
        title: run.titles.get(id) ?? t.next.title,
        location: t.next.location,
        folderId: this.resolve(t.next.folderId),
        dailyNoteDate: t.next.dailyNoteDate,
        remoteModifiedAt: null,
        createdAt: null,
        fileHash: UNSENT,
      });
      journal.replaceBaseBlocks(id, []);
    }
    // The creation is recorded; the document's own intents (its blocks) stay until it is.
    if (key === 'POST /documents') {
      for (const i of stepIntents) journal.clearIntent(i);
      for (const d of step.docs)
        run.intents.set(
          d,
          (run.intents.get(d) ?? []).filter((i) => !stepIntents.includes(i)),
        );
    }
  }
}

/**
 * Lists the space again before a step for documents it already holds when the push waited since
 * the last look (or that look is old), and names the documents the space changed since: those the
 * rest of the push would still write. A document this push wrote since the last look cannot be told
 * apart from one the space changed, so the new look becomes its reference.
 */
function watchStaleness(ctx: SyncContext, plan: PushPlan, listing: NonNullable<ExecuteOptions['listing']>) {
  const expected = new Map<string, string | null>();
  for (const t of plan.tasks) {
    if (!t.record || isRef(t.doc)) continue;
    const e = listing.items.get(t.doc);
    if (e) expected.set(t.doc, e.lastModifiedAt);
  }
  const waits = () => {
    const s = ctx.client.stats();
    return s.stalledMs + s.retries + s.rateLimited;
  };
  let lookedAt = Date.parse(listing.takenAt);
  let waitsThen = waits();
  const written = new Set<string>();
  return {
    wrote(docs: readonly string[]) {
      for (const d of docs) written.add(d);
    },
    async check(step: PlanStep, rest: readonly PlanStep[], failed: ReadonlySet<string>): Promise<string[]> {
      if (!step.docs.some((d) => expected.has(d) && !failed.has(d))) return [];
      const now = ctx.now().getTime();
      if (waits() === waitsThen && now - lookedAt < RECHECK_AFTER_MS) return [];
      const fresh = await currentListing(ctx, 0);
      lookedAt = Date.parse(fresh.takenAt);
      waitsThen = waits();
      const pending = new Set(rest.flatMap((s) => s.docs));
      const stale: string[] = [];
      for (const [id, before] of expected) {
        const after = fresh.items.get(id)?.lastModifiedAt ?? null;
        if (written.has(id)) expected.set(id, after);
        else if (after !== before && pending.has(id) && !failed.has(id)) stale.push(id);
      }
      written.clear();
      return stale;
    },
  };
}

/**
 * Sends one step of a plan (its refs already resolved) through the client's endpoint for it, at
 * the user's priority. The answer comes back as the service gave it.
 */
export async function sendStep(ctx: SyncContext, step: PlanStep): Promise<unknown> {
  const { client } = ctx;
  const o = { priority: 'user' as const };
  const body = (step.body ?? {}) as Record<string, unknown>;
  switch (`${step.method} ${step.path}`) {
    case 'GET /blocks': {
      const q = step.query ?? {};
      const depth = q.maxDepth === undefined ? {} : { maxDepth: Number(q.maxDepth) };
      return q.date !== undefined ? client.getBlocks({ date: q.date, ...depth }, o) : client.getBlocks({ id: q.id!, ...depth }, o);
    }
    case 'POST /blocks':
      return client.createBlocks(body as unknown as CreateBlocksInput, o);
    case 'PUT /blocks':
      return client.updateBlocks(body as { blocks: Array<{ id: string; markdown: string }> }, o);
    case 'PUT /tasks':
      return client.updateTasks(body as unknown as { tasksToUpdate: TaskUpdate[] }, o);
    case 'PUT /blocks/move':
      return client.moveBlocks(body as { blockIds: string[]; position: Position }, o);
    case 'DELETE /blocks':
      return client.deleteBlocks(body as { blockIds: string[] }, o);
    case 'POST /documents':
      return client.createDocuments(body as unknown as CreateDocumentsInput, o);
    case 'PUT /documents/move':
      return client.moveDocuments(body as { documentIds: string[]; destination: DocumentDestination }, o);
    case 'DELETE /documents':
      return client.deleteDocuments(body as { documentIds: string[] }, o);
    case 'POST /folders':
      return client.createFolders(body as { folders: Array<{ name: string; parentFolderId?: string }> }, o);
    case 'PUT /folders/move':
      return client.moveFolders(body as { folderIds: string[]; destination: FolderDestination }, o);
    case 'DELETE /folders':
      return client.deleteFolders(body as { folderIds: string[] }, o);
    default:
      throw new Error(`sendStep: no endpoint for ${step.method} ${step.path}`);
  }
}
