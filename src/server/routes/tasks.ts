// Tasks: task blocks (list style task) across the inbox, daily notes and documents, listed by
// scope; created at the top of their location; updated (state stamps, dates, text, location);
// deleted. A task in a document is an ordinary block, so this view and GET /blocks agree.
// Done or canceled inbox tasks move to the logbook: they leave scope `inbox` and join `logbook`.
import { z } from 'zod';
import { splitMarkdown } from '../../dialect/index.js';
import type { ApiRequest, ApiRouter } from '../http/router.js';
import type { RequestContext } from '../context.js';
import { ApiError, notFound, validationFailed } from '../http/apiError.js';
import { parseBody, queryString } from '../http/query.js';
import { localDate, resolveDate } from '../dates.js';
import { documentBlocks, getBlock, openGap, placeBlock, setDocumentOf, subtreeIds, taskBlocks, updateBlockContent, type BlockRow } from '../store/blocks.js';
import { getDocument, inboxDocument, touchDocument, type DocumentRow } from '../store/documents.js';
import { parseData } from '../model/blockData.js';
import { applyUpdate, markdownOf, prepareNewBlock, type PreparedBlock } from '../model/blockInput.js';
import { deleteSubtrees, insertPrepared } from '../model/blockWrites.js';
import { createDocument, ensureDailyNote } from '../model/createDocument.js';
import { isTask, taskCore, taskDate, taskInfoOf, taskJson, type TaskJson } from '../model/taskJson.js';
import { INBOX_TITLE } from '../fixture/loadFixture.js';
import { readingOrder } from './documentsSearch.js';

export const TASK_SCOPES = ['active', 'upcoming', 'inbox', 'logbook', 'document', 'all'] as const;
type Scope = (typeof TASK_SCOPES)[number];

const location = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('inbox') }),
    z.object({ type: z.literal('dailyNote'), date: z.string().min(1).optional() }),
    z.object({ type: z.literal('document'), documentId: z.string().min(1, "A document location needs 'documentId'.") }),
  ],
  { message: "'location.type' must be inbox, dailyNote or document." },
);
type LocationInput = z.infer<typeof location>;

const date = z.string().min(1);
const createBody = z.object({
  tasks: z
    .array(
      z.object({
        markdown: z.string().min(1, 'A task needs its text in markdown.'),
        taskInfo: z.object({ scheduleDate: date.optional(), deadlineDate: date.optional() }).optional(),
        location,
      }),
    )
    .min(1, "'tasks' must list at least one task."),
});
const updateBody = z.object({
  tasksToUpdate: z
    .array(
      z.object({
        id: z.string().min(1),
        markdown: z.string().min(1, 'A task needs its text in markdown.').optional(),
        taskInfo: z
          .object({
            state: z.enum(['todo', 'done', 'canceled'], { message: "'state' must be todo, done or canceled." }).optional(),
            scheduleDate: date.nullable().optional(),
            deadlineDate: date.nullable().optional(),
          })
          .optional(),
        location: location.optional(),
      }),
    )
    .min(1, "'tasksToUpdate' must list at least one task."),
});
const deleteBody = z.object({ idsToDelete: z.array(z.string().min(1)).min(1, "'idsToDelete' must list at least one id.") });

/** The hidden document the task inbox lives in, created on first use. */
function inboxRoot(ctx: RequestContext): BlockRow {
  const doc = inboxDocument(ctx.db);
  const id = doc ? doc.id : createDocument(ctx, { title: INBOX_TITLE, location: 'inbox', folderId: null });
  return getBlock(ctx.db, id)!;
}

/** The root block a location puts tasks into (a daily note is created when missing). */
function locationRoot(ctx: RequestContext, loc: LocationInput, path: Array<string | number>): BlockRow {
  if (loc.type === 'inbox') return inboxRoot(ctx);
  if (loc.type === 'dailyNote') {
    const day = resolveDate(loc.date ?? 'today', ctx.now, ctx.space.timezone);
    if (day === undefined) throw validationFailed([{ message: "'location.date' must be YYYY-MM-DD, today, tomorrow or yesterday.", path: [...path, 'date'] }]);
    return getBlock(ctx.db, ensureDailyNote(ctx, day).id)!;
  }
  const doc = getDocument(ctx.db, loc.documentId);
  if (!doc || doc.location === 'inbox') throw notFound(`Document ${loc.documentId}`);
  return getBlock(ctx.db, doc.id)!;
}

/** A task's text as sent (a `- [ ] ` prefix is optional) → the normalised text of one task block. */
function taskText(ctx: RequestContext, markdown: string, path: Array<string | number>): string {
  const parts = splitMarkdown(markdown);
  if (parts.length !== 1)
    throw validationFailed([{ message: `A task is one block of text; this markdown makes ${parts.length} blocks. Send one line.`, path }]);
  const first = parts[0]!;
  const text = first.listStyle === 'task' ? first.body : markdown.trim();
  const notText = () => validationFailed([{ message: 'This markdown cannot be the text of a task: send one line of text.', path }]);
  let prepared: PreparedBlock[];
  try {
    prepared = prepareNewBlock({ type: 'text', markdown: `- [ ] ${text}` }, ctx.now, ctx.space.timezone, ctx.media);
  } catch (e) {
    // A block of another type (a table, code) is refused in the words of tasks; dialect errors keep theirs.
    if (e instanceof ApiError) throw notText();
    throw e;
  }
  const block = prepared[0];
  if (prepared.length !== 1 || !block || block.data.listStyle !== 'task' || block.children.length > 0) {
    throw notText();
  }
  return block.data.body ?? '';
}

function existingTask(ctx: RequestContext, id: string): BlockRow {
  const row = getBlock(ctx.db, id);
  if (!row || !isTask(row)) throw notFound(`Task ${id}`);
  return row;
}

function inScope(scope: Scope, row: BlockRow, doc: DocumentRow, today: string, documentId: string | undefined): boolean {
  const t = taskInfoOf(row);
  const open = t.state === 'todo';
  const day = taskDate(t);
  switch (scope) {
    case 'active':
      return open && day !== undefined && day <= today;
    case 'upcoming':
      return open && day !== undefined && day > today;
    case 'inbox':
      return open && doc.location === 'inbox';
    case 'logbook':
      return !open;
    case 'document':
      return doc.id === documentId;
    case 'all':
      return true;
  }
}

export function registerTasks(api: ApiRouter): void {
  api.get('/tasks', listTasks, { blockOperation: true });
  api.post('/tasks', createTasks, { blockOperation: true });
  api.put('/tasks', updateTasks, { blockOperation: true });
  api.delete('/tasks', deleteTasks, { blockOperation: true });
}

/** `GET /tasks`: the tasks of a scope, by location then reading order, or by date for the dated scopes. */
function listTasks(ctx: RequestContext, req: ApiRequest) {
  const scope = queryString(req.query, 'scope');
  if (scope === undefined) throw validationFailed([{ message: `'scope' is required: one of ${TASK_SCOPES.join(', ')}.`, path: ['scope'] }]);
  if (!(TASK_SCOPES as readonly string[]).includes(scope))
    throw validationFailed([{ message: `'scope' must be one of ${TASK_SCOPES.join(', ')}.`, path: ['scope'] }]);
  const documentId = queryString(req.query, 'documentId');
  if (scope === 'document') {
    if (documentId === undefined) throw validationFailed([{ message: "'documentId' is required when 'scope' is document.", path: ['documentId'] }]);
    const doc = getDocument(ctx.db, documentId);
    if (!doc || doc.location === 'inbox') throw notFound(`Document ${documentId}`);
  }
  const today = localDate(ctx.now, ctx.space.timezone);
  const docs = new Map<string, DocumentRow>();
  const byDoc = new Map<string, BlockRow[]>();
  for (const row of taskBlocks(ctx.db)) {
    let doc = docs.get(row.doc_id);
    if (!doc) docs.set(row.doc_id, (doc = getDocument(ctx.db, row.doc_id)!));
    // Deleted documents hold no live tasks; they are listed only when asked for by id.
    if (doc.location === 'trash' && scope !== 'document') continue;
    if (!inScope(scope as Scope, row, doc, today, documentId)) continue;
    const had = byDoc.get(doc.id);
    if (had) had.push(row);
    else byDoc.set(doc.id, [row]);
  }
  // Locations in creation order, tasks in reading order within each.
  const items: TaskJson[] = [];
  for (const doc of [...byDoc.keys()].map((id) => docs.get(id)!).sort((a, b) => a.seq - b.seq)) {
    const wanted = new Set(byDoc.get(doc.id)!.map((r) => r.id));
    for (const row of readingOrder(documentBlocks(ctx.db, doc.id), doc.id)) if (wanted.has(row.id)) items.push(taskJson(row, doc));
  }
  if (scope === 'active' || scope === 'upcoming') {
    const day = (t: TaskJson) => t.taskInfo.scheduleDate ?? t.taskInfo.deadlineDate ?? '';
    items.sort((a, b) => day(a).localeCompare(day(b)));
  } else if (scope === 'logbook') {
    const closed = (t: TaskJson) => t.completedAt ?? t.canceledAt ?? '';
    items.sort((a, b) => closed(b).localeCompare(closed(a)));
  }
  ctx.chargeBlocks(items.length);
  return { items };
}

/** `POST /tasks`: tasks of one request for the same location keep their order at its top. */
function createTasks(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(createBody, req.body);
  const placed = new Map<string, number>();
  const ids = body.tasks.map((t, i) => {
    const text = taskText(ctx, t.markdown, ['tasks', i, 'markdown']);
    const prepared = prepareNewBlock(
      { type: 'text', markdown: `- [ ] ${text}`, taskInfo: { state: 'todo', ...t.taskInfo } },
      ctx.now,
      ctx.space.timezone,
      ctx.media,
    );
    const root = locationRoot(ctx, t.location, ['tasks', i, 'location']);
    const pos = placed.get(root.id) ?? 0;
    placed.set(root.id, pos + 1);
    return insertPrepared(ctx, root, pos, prepared)[0]!;
  });
  return { items: ids.map((id) => taskCore(getBlock(ctx.db, id)!)) };
}

/** `PUT /tasks`: text, state and dates through the block update; a new location moves the task to its top. */
function updateTasks(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(updateBody, req.body);
  const rows = body.tasksToUpdate.map((u) => existingTask(ctx, u.id));
  const items = body.tasksToUpdate.map((u, i) => {
    let row = getBlock(ctx.db, rows[i]!.id)!;
    const old = parseData(row.data);
    let markdown: string | undefined;
    if (u.markdown !== undefined) markdown = markdownOf('text', { ...old, body: taskText(ctx, u.markdown, ['tasksToUpdate', i, 'markdown']) });
    const data = applyUpdate(
      row,
      { id: row.id, ...(markdown !== undefined ? { markdown } : {}), ...(u.taskInfo ? { taskInfo: u.taskInfo } : {}) },
      ctx.now,
      ctx.space.timezone,
      ctx.media,
    );
    if (u.location) {
      const root = locationRoot(ctx, u.location, ['tasksToUpdate', i, 'location']);
      if (root.id !== row.doc_id) {
        // At the top of its new location, the task stands on its own: no indentation.
        delete data.indentationLevel;
        openGap(ctx.db, root.id, 0, 1);
        placeBlock(ctx.db, row.id, root.id, 0);
        setDocumentOf(ctx.db, subtreeIds(ctx.db, row.id), root.doc_id);
        touchDocument(ctx.db, row.doc_id, ctx.now);
      }
    }
    updateBlockContent(ctx.db, row.id, {
      type: row.type,
      data: JSON.stringify(data),
      markdown: markdownOf('text', data),
      modifiedAt: ctx.now,
      modifiedBy: ctx.space.userId,
    });
    row = getBlock(ctx.db, row.id)!;
    touchDocument(ctx.db, row.doc_id, ctx.now);
    return taskJson(row, getDocument(ctx.db, row.doc_id)!);
  });
  ctx.chargeBlocks(items.length);
  return { items };
}

/** `DELETE /tasks`: each task once, with the blocks under it. */
function deleteTasks(ctx: RequestContext, req: ApiRequest) {
  const body = parseBody(deleteBody, req.body);
  deleteSubtrees(ctx, new Set(body.idsToDelete), (id) => existingTask(ctx, id));
  return { items: body.idsToDelete.map((id) => ({ id })) };
}
