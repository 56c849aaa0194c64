// Carries out a push plan: conflict copies first, then each step in order with its refs resolved
// from earlier answers, an intent recorded before it is sent. Folders and created documents are
// recorded as their answers come (so a repeated run never creates them twice); each document is
// recorded once all its steps went through. A step that fails ends only the documents in it (their
// intents stay: the next cycle reads them again and merges); steps that need what it would have
// created are left for the next cycle.
import { blocksOfAnswer } from '../core/baseAfter.js';
import { markdownOf } from '../core/flattenRemote.js';
import { isRef, type PlanStep } from '../core/plan.js';
import { readYields, resolveStep } from '../core/refs.js';
import type { Block } from '../dialect/index.js';
import { isSpacesyncError } from '../errors.js';
import type { SyncContext } from './SyncContext.js';
import { finalizeDocument, UNSENT, writeConflictCopy, type DocumentOutcome, type RunState } from './finalizeDocument.js';
import type { DocumentTask, PushPlan } from './PushPlan.js';
import { isPerDocumentError } from './pullDocument.js';
import { sendStep } from './sendStep.js';

export interface PushOutcome {
  /** Steps sent, in order, refs resolved. */
  sent: PlanStep[];
  documents: DocumentOutcome[];
  failed: Array<{ path: string; code: string; message: string }>;
  /** Blocks the sent steps wrote. */
  blocksWritten: number;
  /** Documents whose conflicting version was kept as a copy. */
  conflicts: number;
  /** Stopped by a signal between steps. */
  aborted: boolean;
}

const opOf = (s: PlanStep) => `${s.method} ${s.path}`;

export async function executePlan(ctx: SyncContext, plan: PushPlan): Promise<PushOutcome> {
  const { journal } = ctx;
  const out: PushOutcome = { sent: [], documents: [], failed: [], blocksWritten: 0, conflicts: 0, aborted: false };
  const run: RunState = { ids: new Map(), answered: new Map(), titles: new Map(), intents: new Map() };
  const failed = new Set<string>();
  const taskOf = new Map(plan.tasks.map((t) => [t.doc, t]));
  const pathOf = (doc: string) => taskOf.get(doc)?.next.path ?? doc;
  const folders = plan.folders;
  const resolve = (x: string | null) => (x === null ? null : (run.ids.get(x) ?? x));

  const copies = new Map<DocumentTask, string>();
  for (const t of plan.tasks) {
    if (t.local && (t.file?.merge.conflicts.length ?? 0) > 0) copies.set(t, await writeConflictCopy(ctx, t.local.path, t.local.text));
  }

  for (const step of plan.steps) {
    if (ctx.signal?.aborted) {
      out.aborted = true;
      break;
    }
    if (step.docs.some((d) => failed.has(d))) continue;
    const resolved = resolveStep(step, run.ids);
    if (!resolved.ok) {
      step.docs.forEach((d) => failed.add(d));
      continue;
    }
    const s = resolved.step;
    const folderPaths = (step.yields ?? []).map((y) => folders?.creates.find((c) => c.ref === y.ref)?.path ?? '');
    const payload = { step: { method: s.method, path: s.path, body: s.body, query: s.query }, paths: step.docs.length ? step.docs.map(pathOf) : folderPaths };
    const stepIntents: number[] = [];
    if (step.docs.length === 0) stepIntents.push(journal.addIntent({ docId: null, op: opOf(s), payload }));
    for (const d of step.docs) {
      const i = journal.addIntent({ docId: isRef(d) && !run.ids.has(d) ? null : resolve(d), op: opOf(s), payload });
      stepIntents.push(i);
      run.intents.set(d, [...(run.intents.get(d) ?? []), i]);
    }
    let answer: unknown;
    try {
      answer = await sendStep(ctx, s);
    } catch (e) {
      const gone = isSpacesyncError(e, 'not_found') && s.method === 'DELETE';
      if (!gone) {
        if (!isPerDocumentError(e) && !isSpacesyncError(e, 'not_found')) throw e;
        const err = e as { code: string; message: string };
        step.docs.forEach((d) => failed.add(d));
        out.failed.push({ path: step.docs.length ? step.docs.map(pathOf).join(', ') : step.describe, code: err.code, message: err.message });
        ctx.logger.warn({ op: opOf(s), docs: s.docs, code: err.code }, err.message);
        continue;
      }
    }
    out.sent.push(s);
    out.blocksWritten += s.method === 'GET' ? 0 : s.blocks;
    const yields = readYields(step, answer);
    for (const [ref, id] of yields.ids) run.ids.set(ref, id);
    // A document whose new blocks the answer does not name is read again next cycle.
    for (const d of step.docs) if (yields.missing.length > 0) failed.add(d);
    for (const [id, md] of blocksOfAnswer(answer)) run.answered.set(id, md);
    journal.transaction(() => record(step, s, answer, stepIntents));
  }

  for (const t of plan.tasks) {
    if (failed.has(t.doc) || (isRef(t.doc) && !run.ids.has(t.doc))) continue;
    const o = await finalizeDocument(ctx, t, run, copies.get(t) ?? null);
    out.documents.push(o);
    if (o.conflictCopy) out.conflicts++;
  }
  ctx.logger.info({ steps: out.sent.length, documents: out.documents.length, failed: out.failed.length, conflicts: out.conflicts }, 'pushed');
  return out;

  /** What the journal learns from one answer, with the clearing of the intents that need nothing more. */
  function record(step: PlanStep, s: PlanStep, answer: unknown, stepIntents: number[]): void {
    const key = opOf(s);
    if (key === 'POST /folders' && folders) {
      for (const c of folders.creates) {
        const id = run.ids.get(c.ref);
        if (id) journal.upsertFolder({ id, name: c.name, parentId: resolve(c.parent), path: c.path, documentCount: 0 });
      }
    } else if (key === 'PUT /folders/move' && folders) {
      const moved = new Set((s.body as { folderIds: string[] }).folderIds);
      for (const m of folders.moves) {
        if (!moved.has(m.id)) continue;
        const rec = journal.getFolder(m.id);
        journal.movePathPrefix(m.from, m.to);
        if (rec) journal.upsertFolder({ ...rec, parentId: resolve(m.parent), path: m.to });
      }
      for (const r of folders.renames) {
        const parent = resolve(r.ref);
        for (const sub of r.subfolderIds) {
          const rec = journal.getFolder(sub);
          if (!moved.has(sub) || !rec) continue;
          const to = r.to + rec.path.slice(r.from.length);
          journal.movePathPrefix(rec.path, to);
          journal.upsertFolder({ ...rec, parentId: parent, path: to });
        }
      }
    } else if (key === 'DELETE /folders') {
      for (const id of (s.body as { folderIds: string[] }).folderIds) journal.deleteFolder(id);
    }
    // Documents the step names that this push has no file for (the service's own, carried along a folder rename).
    for (const d of step.docs) {
      if (taskOf.has(d)) continue;
      (run.intents.get(d) ?? []).forEach((i) => journal.clearIntent(i));
      run.intents.delete(d);
    }
    if (key === 'POST /folders' || key === 'PUT /folders/move' || key === 'DELETE /folders') {
      stepIntents.forEach((i) => journal.clearIntent(i)); // folder steps name no document
    } else if (key === 'POST /documents' || key === 'GET /blocks') {
      // A created document is recorded at once, so a run stopped now never creates it again.
      for (const d of step.docs) {
        const id = run.ids.get(d);
        const t = taskOf.get(d);
        if (!id || !t) continue;
        if (key === 'GET /blocks') run.titles.set(id, markdownOf(answer as Block));
        if (journal.getDocument(id)) continue;
        journal.upsertDocument({
          id, path: t.next.path, title: run.titles.get(id) ?? t.next.title, location: t.next.location, folderId: resolve(t.next.folderId),
          dailyNoteDate: t.next.dailyNoteDate, remoteModifiedAt: null, createdAt: null, fileHash: UNSENT,
        });
        journal.replaceBaseBlocks(id, []);
      }
      // The creation is recorded; the document's own intents (its blocks) stay until it is.
      if (key === 'POST /documents') {
        stepIntents.forEach((i) => journal.clearIntent(i));
        for (const d of step.docs) run.intents.set(d, (run.intents.get(d) ?? []).filter((i) => !stepIntents.includes(i)));
      }
    }
    // Block writes and document moves are recorded with their documents.
  }
}
