// Carries out a push plan step by step: an intent before each request, the journal updated from
// each answer in one transaction with the intent's clearing. A document's failure ends only that
// document (its intents stay, so the next cycle re-reads and merges it); a failed folder or
// document-level step ends the push, since later steps may build on it.
import { idSuffix } from '../core/layout.js';
import { stemOfPath } from '../core/fileName.js';
import { isSpacesyncError } from '../errors.js';
import type { DocumentRecord } from '../journal/index.js';
import type { SyncContext } from './SyncContext.js';
import { executeDocumentPush, UNSENT, type DocumentPushOutcome } from './executeDocumentPush.js';
import type { PushPlan, PushStep } from './PushPlan.js';
import { isPerDocumentError } from './pullDocument.js';
import type { PushRequest } from './pushRequests.js';
import { sendPushRequest, type PushAnswer, type Refs } from './sendPushRequest.js';
import type { Placement } from './remoteTypes.js';

export interface PushOutcome {
  /** Requests sent, in order. */
  sent: PushRequest[];
  documents: DocumentPushOutcome[];
  created: string[];
  trashed: string[];
  /** Files deleted here whose documents were edited in the space: written again by the pull. */
  restored: string[];
  failed: Array<{ path: string; code: string; message: string }>;
  /** Blocks written (PUT, POST, move, DELETE of blocks). */
  blocksWritten: number;
  conflicts: number;
  /** Stopped by a signal between steps. */
  aborted: boolean;
}

const resolved = (refs: Refs, id: string | null) => (id === null ? null : refs.get(id) ?? id);

function placed(refs: Refs, p: Placement): Placement {
  return { ...p, folderId: resolved(refs, p.folderId) };
}

/** A free record path in Trash/ for a document whose file is gone (the pull writes it there). */
function trashPath(ctx: SyncContext, r: DocumentRecord): string {
  const stem = stemOfPath(r.path);
  for (const candidate of [`Trash/${stem}.md`, `Trash/${stem} (${idSuffix(r.id)}).md`, `Trash/${r.id}.md`]) {
    const holder = ctx.journal.getDocumentByPath(candidate);
    if (!holder || holder.id === r.id) return candidate;
  }
  return `Trash/${stem} (${r.id}).md`;
}

async function runStep(ctx: SyncContext, step: Exclude<PushStep, { kind: 'content' | 'restoreFile' | 'trashedBoth' }>, refs: Refs, out: PushOutcome): Promise<void> {
  const { journal } = ctx;
  const request = step.request;
  const intent = journal.addIntent({ docId: null, op: request.op, payload: { request } });
  let answer: PushAnswer | undefined;
  try {
    answer = await sendPushRequest(ctx, request, refs);
  } catch (e) {
    // Deleting what is already gone is done.
    if (!(isSpacesyncError(e, 'not_found') && (step.kind === 'deleteDocuments' || step.kind === 'deleteFolders'))) throw e;
  }
  out.sent.push(request);
  journal.transaction(() => {
    switch (step.kind) {
      case 'createFolders': {
        const ids = answer && answer.op === 'POST /folders' ? answer.ids : [];
        step.request.refs.forEach((ref, i) => {
          const id = ids[i];
          if (id === undefined) return;
          refs.set(ref, id);
          const f = step.request.folders[i]!;
          journal.upsertFolder({ id, name: f.name, parentId: resolved(refs, f.parent), path: step.request.paths[i]!, documentCount: 0 });
        });
        break;
      }
      case 'moveFolders':
        for (const m of step.moves) {
          const rec = journal.getFolder(m.id);
          journal.movePathPrefix(m.from, m.to);
          if (rec) journal.upsertFolder({ ...rec, name: m.name, parentId: resolved(refs, m.parent), path: m.to });
        }
        break;
      case 'createDocuments': {
        const ids = answer && answer.op === 'POST /documents' ? answer.ids : [];
        step.request.refs.forEach((ref, i) => {
          const id = ids[i];
          if (id === undefined) return;
          refs.set(ref, id);
          const p = placed(refs, step.placement);
          journal.upsertDocument({ id, path: step.request.paths[i]!, title: step.request.titles[i]!, ...p, remoteModifiedAt: null, createdAt: null, fileHash: UNSENT });
          journal.replaceBaseBlocks(id, []);
          out.created.push(step.request.paths[i]!);
        });
        break;
      }
      case 'moveDocuments':
        for (const id of step.request.docs) {
          const rec = journal.getDocument(id);
          if (rec) journal.upsertDocument({ ...rec, ...placed(refs, step.placement) });
        }
        break;
      case 'deleteDocuments':
        for (const id of step.request.docs) {
          const rec = journal.getDocument(id);
          if (!rec) continue;
          out.trashed.push(rec.path);
          // A file moved into Trash/ was recorded there by its content step; a file gone is written there by the pull.
          if (rec.location === 'trash') continue;
          journal.upsertDocument({ ...rec, path: trashPath(ctx, rec), location: 'trash', folderId: null, fileHash: null });
        }
        break;
      case 'deleteFolders':
        for (const f of step.records) journal.deleteFolder(f.id);
        break;
    }
    journal.clearIntent(intent);
  });
}

export async function executePush(ctx: SyncContext, plan: PushPlan): Promise<PushOutcome> {
  const out: PushOutcome = { sent: [], documents: [], created: [], trashed: [], restored: [], failed: [], blocksWritten: 0, conflicts: 0, aborted: false };
  const refs: Refs = new Map();
  for (const step of plan.steps) {
    if (ctx.signal?.aborted) {
      out.aborted = true;
      break;
    }
    if (step.kind === 'restoreFile') {
      ctx.journal.setFileHash(step.id, null);
      out.restored.push(step.path);
      continue;
    }
    if (step.kind === 'trashedBoth') {
      const rec = ctx.journal.getDocument(step.id);
      if (rec) ctx.journal.upsertDocument({ ...rec, path: trashPath(ctx, rec), location: 'trash', folderId: null, fileHash: null });
      out.trashed.push(step.path);
      continue;
    }
    if (step.kind !== 'content') {
      try {
        await runStep(ctx, step, refs, out);
      } catch (e) {
        if (!isPerDocumentError(e) && !isSpacesyncError(e, 'not_found')) throw e;
        const err = e as { code: string; message: string };
        out.failed.push({ path: step.request.op, code: err.code, message: err.message });
        ctx.logger.warn({ op: step.request.op, code: err.code }, err.message);
        break;
      }
      continue;
    }
    // A document whose creation did not happen cannot get its blocks (a daily note is created by its first blocks).
    if (step.created && step.fields.location !== 'daily_notes' && !refs.has(step.plan.id)) continue;
    try {
      const r = await executeDocumentPush(ctx, step.plan, { fields: { ...step.fields, folderId: resolved(refs, step.fields.folderId) }, refs, settles: step.settles });
      out.documents.push(r);
      out.sent.push(...r.sent);
      if (step.created && step.fields.location === 'daily_notes') out.created.push(step.plan.path);
      out.blocksWritten += r.blocksWritten;
      out.conflicts += r.conflicts.length > 0 ? 1 : 0;
    } catch (e) {
      if (!isPerDocumentError(e) && !isSpacesyncError(e, 'not_found')) throw e;
      const err = e as { code: string; message: string };
      out.failed.push({ path: step.plan.path, code: err.code, message: err.message });
      ctx.logger.warn({ doc: step.plan.id, path: step.plan.path, code: err.code }, err.message);
    }
  }
  return out;
}
