// Carries out one document's push: the conflict copy first (nothing of the file can be lost), an
// intent before each request, then in one transaction the new base read from the answers (new
// ids, the service's canonical markdown), the file's hash and the cleared intents. The file is
// rewritten only where the merge or the service's normalisation changed it, and only if nobody
// touched it meanwhile; a file edited during the push is merged again against what was just sent.
import path from 'node:path';
import type { NewBlockSpec } from '../core/changeSet.js';
import { markdownOf } from '../core/flattenRemote.js';
import { hashBlock } from '../core/hashBlock.js';
import type { BlockConflict, BlockProblem } from '../core/merge.js';
import type { BaseBlock, RemoteBlock } from '../core/types.js';
import type { Block } from '../dialect/index.js';
import { SpacesyncError } from '../errors.js';
import type { DocumentLocation } from '../journal/index.js';
import { conflictCopyName, readMirrorFile, writeFileAtomic } from '../mirror/index.js';
import type { SyncContext } from './SyncContext.js';
import { alignFile } from './alignFile.js';
import { planDocumentPush, type DocumentPushPlan } from './planDocumentPush.js';
import { blocksWritten, type PushRequest } from './pushRequests.js';
import { withFrontMatter } from './fileText.js';
import { needsTitle } from '../core/layout.js';
import { parseLocalDocument } from './readLocalDocument.js';
import { renderMerged } from './renderMerged.js';
import { pathExists } from './moveDirectory.js';
import { sendPushRequest, type Refs } from './sendPushRequest.js';

/** The file hash recorded when the file holds changes that were not sent: never a real hash, so the file stays pending. */
export const UNSENT = 'unsent';

/** Merge rounds when the file keeps changing during its own push; the next cycle takes over after. */
const MAX_ROUNDS = 3;

export interface RecordFields {
  location: DocumentLocation;
  folderId: string | null;
  dailyNoteDate: string | null;
  createdAt: string | null;
  remoteModifiedAt: string | null;
}

export interface DocumentPushOptions {
  fields: RecordFields;
  /** Ids of refs answered so far (new documents, folders). */
  refs: Refs;
  /** Intents of earlier attempts this push settles (cleared with its record). */
  settles?: readonly number[];
}

export interface DocumentPushOutcome {
  id: string;
  path: string;
  title: string;
  requests: number;
  blocksWritten: number;
  conflicts: BlockConflict[];
  conflictCopy: string | null;
  problems: BlockProblem[];
  titleConflict: boolean;
  fileWritten: boolean;
  /** Merges run: more than one when the file changed during its push. */
  rounds: number;
  /** Requests sent, in order. */
  sent: PushRequest[];
}

/** Maps the refs of a POST's blocks to the ids of its answer; false when the answer has another shape. */
function mapCreated(specs: readonly NewBlockSpec[], items: readonly Block[], refs: Refs, answers: Map<string, Block>): boolean {
  if (specs.length !== items.length) return false;
  return specs.every((s, i) => {
    const b = items[i]!;
    refs.set(s.ref, b.id);
    answers.set(b.id, b);
    return mapCreated(s.children, b.content ?? [], refs, answers);
  });
}

function newBase(expected: readonly RemoteBlock[], refs: Refs, answers: ReadonlyMap<string, Block>): BaseBlock[] {
  return expected.map((e) => {
    const id = refs.get(e.id) ?? e.id;
    const parentId = e.parentId === null ? null : (refs.get(e.parentId) ?? e.parentId);
    const a = answers.get(id);
    if (!a) return { ...e, id, parentId, hash: hashBlock(e.markdown, e.kind) };
    const markdown = markdownOf(a);
    return { id, parentId, position: e.position, level: a.indentationLevel ?? 0, kind: e.kind, type: a.type, markdown, hash: hashBlock(markdown, e.kind) };
  });
}

async function writeConflictCopy(ctx: SyncContext, relPath: string, text: string): Promise<string> {
  const dir = path.posix.dirname(relPath);
  const at = ctx.now();
  for (let n = 1; ; n++) {
    const name = conflictCopyName(path.posix.basename(relPath), at, n);
    const copy = dir === '.' ? name : `${dir}/${name}`;
    if (await pathExists(ctx.root, copy)) continue;
    await writeFileAtomic(ctx.root, copy, text, { ownWrites: ctx.ownWrites });
    return copy;
  }
}

export async function executeDocumentPush(ctx: SyncContext, first: DocumentPushPlan, opts: DocumentPushOptions): Promise<DocumentPushOutcome> {
  const { journal } = ctx;
  const { refs } = opts;
  const out: DocumentPushOutcome = {
    id: first.id, path: first.path, title: first.title, requests: 0, blocksWritten: 0, conflicts: [], conflictCopy: null, problems: [],
    titleConflict: first.titleConflict, fileWritten: false, rounds: 0, sent: [],
  };
  const intents: number[] = [];
  let plan = first;
  for (;;) {
    out.rounds++;
    const docId = refs.get(plan.id) ?? plan.id;
    out.id = docId;
    if (plan.merge.conflicts.length > 0) {
      out.conflictCopy = await writeConflictCopy(ctx, plan.path, plan.local.text);
      out.conflicts.push(...plan.merge.conflicts);
      ctx.logger.warn({ doc: docId, path: plan.path, copy: out.conflictCopy, blocks: plan.merge.conflicts.length }, 'conflict: the local version is kept as a copy');
    }
    out.problems = plan.merge.problems;

    const answers = new Map<string, Block>();
    for (const r of plan.requests) {
      intents.push(journal.addIntent({ docId: refs.get(plan.id) ?? plan.id, op: r.op, payload: { path: plan.path, request: r } }));
      const a = await sendPushRequest(ctx, r, refs);
      out.requests++;
      out.sent.push(r);
      out.blocksWritten += blocksWritten(r);
      if (r.op === 'POST /blocks' && 'date' in r.anchor && !refs.has(plan.id)) {
        // A new daily note: the write created it; its id is the date's root block.
        const root = await ctx.client.getBlocks({ date: r.anchor.date, maxDepth: 0 }, { priority: 'user' });
        refs.set(plan.id, root.id);
        answers.set(root.id, root);
      }
      if (a.op === 'PUT /blocks') for (const b of a.items) answers.set(b.id, b);
      if (a.op === 'POST /blocks' && r.op === 'POST /blocks' && !mapCreated(r.blocks, a.items, refs, answers)) {
        throw new SpacesyncError('bad_response', `The service created other blocks than were sent for "${plan.path}" (it split or joined them). Nothing more was sent for this document; it is read again and merged on the next cycle.`, { details: { doc: docId } });
      }
    }
    const base = newBase(plan.changes.expected, refs, answers);
    const id = refs.get(plan.id) ?? plan.id;
    out.id = id;
    const root = answers.get(id);
    const title = root ? markdownOf(root) : plan.title;
    out.title = title;

    let target = plan.merge.fileChanged ? renderMerged(plan.local.text, plan.merge.nodes, plan.remote?.byId ?? new Map()) : plan.local.text;
    // The front matter names the document (a new file gets its id) and the title when the name cannot carry it.
    const fm = withFrontMatter(target, { id, title: needsTitle(title, plan.path) ? title : undefined }, plan.path);
    if (fm.ok) target = fm.text;
    const alignment = alignFile(target, base);
    target = alignment.text;

    const now = await readMirrorFile(ctx.root, plan.path);
    let fileHash: string;
    if (now !== null && now.hash === plan.local.hash) {
      if (target !== plan.local.text) {
        fileHash = (await writeFileAtomic(ctx.root, plan.path, target, { ownWrites: ctx.ownWrites })).hash;
        out.fileWritten = true;
      } else {
        fileHash = now.hash;
      }
    } else if (now !== null && plan.merge.fileChanged && out.rounds < MAX_ROUNDS) {
      // Edited while its push was out: merge the newer text with what the service now holds.
      const byId = new Map([...(plan.remote?.byId ?? []), ...answers]);
      const remoteNow: RemoteBlock[] = base.map(({ hash: _h, ...b }) => b);
      plan = planDocumentPush({
        id, path: plan.path, local: parseLocalDocument(plan.path, now.text, now.hash), base: plan.base,
        remote: { blocks: remoteNow, byId, title, lastModifiedAt: plan.remote?.lastModifiedAt ?? null },
        baseTitle: plan.baseTitle, localTitle: plan.localTitle,
      });
      continue;
    } else {
      // The newer edit builds on what was sent; the next cycle sends the rest.
      fileHash = plan.local.hash;
    }
    if (!alignment.aligned) fileHash = UNSENT;

    journal.transaction(() => {
      journal.upsertDocument({ id, path: plan.path, title, ...opts.fields, fileHash });
      journal.replaceBaseBlocks(id, base);
      for (const i of [...(opts.settles ?? []), ...intents]) journal.clearIntent(i);
      if (out.conflictCopy !== null) {
        journal.addConflict({ docId: id, path: plan.path, copyPath: out.conflictCopy, details: { blocks: out.conflicts } });
      }
    });
    ctx.logger.info({ doc: id, path: plan.path, requests: out.requests, blocks: out.blocksWritten, conflicts: out.conflicts.length, written: out.fileWritten }, 'pushed');
    return out;
  }
}

