// The push of collection tables: before the blocks' push, each file holding a collection that
// changed since it was synced (by its stat, then its hash) is looked at for collection tables that differ from their base. For each, the space's
// collection (GET /blocks of the collection, with its items) and its schema are read, the pure
// planCollectionPush decides, and its item requests are sent: PUT …/items (only the changed
// properties), POST …/items, DELETE …/items. Then the collection is read again and becomes the
// base; the file's table is written over with it (same bytes the pull would write, so nothing
// ping-pongs) unless cells were held back, which the file keeps. A file saved again while the
// requests were out keeps its old base and is looked at again at once. A refused table (a changed
// header, unreadable) sends nothing; a changed header is restored from the space, the user's
// version kept in the history.
import { markdownOf } from '../../core/pull/flattenRemote.js';
import { collectionRowsOf } from '../../core/collections/collectionRowsOf.js';
import { hashBlock } from '../../core/merge/hashBlock.js';
import { planCollectionPush, type CollectionPush, type PropertyType } from '../../core/collections/planCollectionPush.js';
import type { BaseBlock } from '../../core/types.js';
import { parseCollectionTable, segmentFile, type Block, type CollectionTable, type Segment } from '../../dialect/index.js';
import { isSpacesyncError } from '../../errors.js';
import { hashText, readMirrorFile, writeFileIfUnchanged } from '../../mirror/index.js';
import { readCollectionRows, recordCollectionRows, saveLocalVersion, StatCache, type SyncContext } from '../context/index.js';

export interface CollectionPushResult {
  /** Requests made (reads and writes). */
  requests: number;
  /** Item requests sent (PUT, POST, DELETE). */
  writes: string[];
  /** The tables whose edits here were sent: the file, the collection, the rows changed, added and removed. */
  sent: Array<{ path: string; collection: string; updated: number; created: number; removed: number }>;
  /** What was not sent, with what to do: standing while the file stays so. */
  problems: Array<{ path: string; message: string }>;
  /** Said once: a cell changed on both sides, whose space's value was kept (the file's went to the history). */
  notes: string[];
  /** A plan (`dryRun`): the files whose table would be written with the space's changes. */
  rewrites?: string[];
}

const HELD = 'collectionHeld';
const isTable = (markdown: string) => markdown.startsWith('<collection name=');
const flatten = (segs: readonly Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);

/** `dryRun`: reads and plans each edited table, sends and writes nothing (the cycle's plan). */
export async function pushCollections(ctx: SyncContext, opts: { paths?: readonly string[]; dryRun?: boolean } = {}): Promise<CollectionPushResult> {
  const result: CollectionPushResult = { requests: 0, writes: [], sent: [], problems: [], notes: [], ...(opts.dryRun ? { rewrites: [] } : {}) };
  if (ctx.readOnly && !opts.dryRun) return result;
  const docs = new Set([...readCollectionRows(ctx).values()].map((r) => r.doc));
  const only = opts.paths ? new Set(opts.paths) : null;
  // A file whose stat is the one recorded with its synced hash is not read (the blocks' scan records stats).
  const cache = StatCache.open(ctx);
  for (const doc of docs) {
    if (ctx.signal?.aborted) break;
    const record = ctx.journal.getDocument(doc);
    if (!record || record.fileHash === null || (only && !only.has(record.path))) continue;
    if (await cache.holds(record.path, record.fileHash)) continue;
    // A file saved again while its tables' requests were out is looked at again at once (a few
    // times at most): the pull after this push would find its table changed on both sides.
    let looks = 0;
    while ((await pushTables(ctx, result, doc)) && ++looks < SAVED_MEANWHILE_LOOKS && !ctx.signal?.aborted) {
      // Looked at again: it was saved while its tables were sent.
    }
  }
  return result;
}

/** How many times in a row a file saved while its tables were sent is looked at again. */
const SAVED_MEANWHILE_LOOKS = 3;

/** The tables of `doc`'s file that differ from their base, each sent; true when the file was saved again meanwhile. */
async function pushTables(ctx: SyncContext, result: CollectionPushResult, doc: string): Promise<boolean> {
  const record = ctx.journal.getDocument(doc);
  if (!record || record.fileHash === null) return false;
  const file = await readMirrorFile(ctx.root, record.path);
  if (!file || file.text === null || file.hash === record.fileHash) return false;
  const tables = flatten(segmentFile(file.text).segments).filter((s) => s.kind === 'readonly' && isTable(s.markdown));
  const bases = ctx.journal.getBaseBlocks(doc).filter((b) => b.type === 'collection' && isTable(b.markdown));
  // A table added or removed in the file is the blocks' push's to hold back.
  if (tables.length !== bases.length) return false;
  let savedMeanwhile = false;
  for (let i = 0; i < tables.length; i++) {
    const seg = tables[i]!;
    const base = bases[i]!;
    if (seg.markdown === base.markdown || seg.indent !== 0) continue;
    try {
      if ((await pushTable(ctx, result, { doc, path: record.path, seg, base })) === 'saved meanwhile') savedMeanwhile = true;
    } catch (e) {
      if (!isSpacesyncError(e) || e.code === 'cancelled') throw e;
      result.problems.push({ path: record.path, message: `the collection table was not sent: ${e.message}. The file keeps it; the next sync tries again.` });
    }
  }
  return savedMeanwhile;
}

interface Table {
  doc: string;
  path: string;
  seg: Segment;
  base: BaseBlock;
}

/** Sends what changed in one table; 'saved meanwhile' when the file changed while the requests were out (its base stays). */
async function pushTable(ctx: SyncContext, result: CollectionPushResult, t: Table): Promise<'done' | 'saved meanwhile'> {
  const { path, seg, base } = t;
  let local: CollectionTable;
  let baseTable: CollectionTable;
  try {
    baseTable = parseCollectionTable(base.markdown);
  } catch {
    return 'done';
  }
  try {
    local = parseCollectionTable(seg.markdown);
  } catch (e) {
    if (!isSpacesyncError(e, 'collection_table')) throw e;
    result.problems.push({ path, message: `collection "${baseTable.name}", ${e.message}. Nothing was sent; the file keeps the table as it is.` });
    return 'done';
  }
  // Cells held back before and not touched since: said again, nothing read.
  const localHash = hashText(seg.markdown);
  const held = ctx.journal.getState<Held>(HELD) ?? {};
  const before = held[base.id];
  if (before?.local === localHash && before.messages.length > 0) {
    for (const m of before.messages) result.problems.push({ path, message: m });
    return 'done';
  }

  const remote = await readCollection(ctx, result, base.id);
  if (!remote.tree.content) return 'done';
  const plan = await planTable(ctx, result, base, baseTable, local, remote);
  if (result.rewrites) {
    // A plan: what would be sent and held back. The file is written with the space's table when the
    // space changed it too and no cell is held back (the file keeps those), or, refused, restored.
    if (plan.kind === 'send') await sendItems(ctx, result, path, base.id, baseTable.name, plan);
    for (const m of plan.kind === 'send' ? plan.held : [plan.message]) result.problems.push({ path, message: m });
    if (plan.kind === 'send' ? remote.markdown !== base.markdown && plan.held.length === 0 : plan.restore) result.rewrites.push(path);
    return 'done';
  }

  let now = remote;
  const messages: string[] = [];
  if (plan.kind === 'refused') {
    messages.push(plan.message);
    if (!plan.restore) {
      for (const m of messages) result.problems.push({ path, message: m });
      return 'done';
    }
  } else {
    const sent = await sendItems(ctx, result, path, base.id, baseTable.name, plan);
    messages.push(...plan.held);
    // Settled by this push (the space's value kept, the file's in the history): news once, not a standing problem.
    result.notes.push(...plan.conflicts.map((m) => `"${path}": ${m}`));
    if (sent) now = await readCollection(ctx, result, base.id);
  }
  return recordTable(ctx, result, t, { now, plan, messages, held, localHash });
}

/** The cells held back of each table (by its block id): the file's table they were held in, and why. */
type Held = Record<string, { local: string; messages: string[] }>;

/** The space's collection as it is now: its tree, its table's markdown, its items' ids. */
async function readCollection(ctx: SyncContext, result: CollectionPushResult, id: string) {
  result.requests++;
  const tree = await ctx.client.getBlocks({ id }, { priority: 'user' });
  return { tree, markdown: markdownOf(tree), ids: (tree.content ?? []).map((it) => it.id) };
}

type Collection = Awaited<ReturnType<typeof readCollection>>;

/** The table's item requests (core planCollectionPush), from its base, the file's table, the space's and the collection's schema. */
async function planTable(
  ctx: SyncContext,
  result: CollectionPushResult,
  base: BaseBlock,
  baseTable: CollectionTable,
  local: CollectionTable,
  remote: Collection,
): Promise<CollectionPush> {
  result.requests++;
  const schema = await ctx.client.getCollectionSchema(base.id, { format: 'schema' }, { priority: 'user' });
  const types = new Map<string, PropertyType>(
    schema.properties.map((p) => [
      p.key,
      {
        type: p.type,
        ...(Array.isArray(p.options)
          ? { options: (p.options as unknown[]).map((o) => (typeof o === 'string' ? o : String((o as { name?: unknown }).name))) }
          : {}),
      },
    ]),
  );
  const recorded = readCollectionRows(ctx).get(base.id);
  return planCollectionPush({
    name: baseTable.name,
    base: baseTable,
    ...(recorded?.hash === base.hash ? { baseIds: recorded.rows } : {}),
    local,
    remote: { table: parseCollectionTable(remote.markdown), ids: remote.ids },
    types,
  });
}

/** Sends the plan's item requests (PUT, POST, DELETE …/items); true when some were sent. */
async function sendItems(
  ctx: SyncContext,
  result: CollectionPushResult,
  path: string,
  id: string,
  collection: string,
  plan: Extract<CollectionPush, { kind: 'send' }>,
): Promise<boolean> {
  const sent = result.writes.length;
  const flag = plan.allowNewSelectOptions ? { allowNewSelectOptions: true } : {};
  // A plan (`rewrites`) counts the requests, sending none.
  const send = async (what: string, request: () => Promise<unknown>) => {
    result.writes.push(what);
    if (result.rewrites) return;
    result.requests++;
    await request();
  };
  if (plan.update.length > 0)
    await send('PUT /collections/{collectionId}/items', () =>
      ctx.client.updateCollectionItems(id, { itemsToUpdate: plan.update, ...flag }, { priority: 'user' }),
    );
  if (plan.create.length > 0)
    await send('POST /collections/{collectionId}/items', () => ctx.client.addCollectionItems(id, { items: plan.create, ...flag }, { priority: 'user' }));
  if (plan.remove.length > 0)
    await send('DELETE /collections/{collectionId}/items', () => ctx.client.deleteCollectionItems(id, { idsToDelete: plan.remove }, { priority: 'user' }));
  if (result.writes.length > sent)
    result.sent.push({ path, collection, updated: plan.update.length, created: plan.create.length, removed: plan.remove.length });
  if (plan.newOptions.length > 0 && !result.rewrites)
    ctx.logger.info({ path, options: plan.newOptions }, `"${path}": new select options added to the collection: ${plan.newOptions.join('; ')}.`);
  return result.writes.length > sent;
}

/**
 * The space's collection is the new base of the table, its rows tied to their items, unless the
 * file was saved again while the requests were out: it cannot take the space's table then, and
 * the space's table as base would make every change the space made meanwhile look like the file
 * undoing it (the next push would send the file's old cells over them). It keeps the old base;
 * what this push sent is found in the space and not sent again. (Cells held back keep the file
 * as it is too, by design: the space's table is their base.)
 */
async function recordTable(
  ctx: SyncContext,
  result: CollectionPushResult,
  t: Table,
  { now, plan, messages, held, localHash }: { now: Collection; plan: CollectionPush; messages: string[]; held: Held; localHash: string },
): Promise<'done' | 'saved meanwhile'> {
  const { path, base } = t;
  const markdown = now.markdown;
  const hash = hashBlock(markdown, base.kind);
  const blocks = ctx.journal.getBaseBlocks(t.doc).map((b) => (b.id === base.id ? { ...b, markdown, hash } : b));
  const rows = collectionRowsOf({ id: t.doc, type: 'page', content: [now.tree] } as Block, blocks);
  const keepsCells = plan.kind === 'send' && plan.held.length > 0;
  // The file first, then the journal. A run stopped between the two finds the file saying what the
  // space says (the next push sends nothing); the other way round it would find a base the file
  // does not show, and a file back at its last synced bytes would look untouched.
  const written: Written = keepsCells
    ? { shows: false, synced: null }
    : await writeTable(ctx, t, markdown, messages.length > 0 || (plan.kind === 'send' && plan.conflicts.length > 0));
  ctx.journal.transaction(() => {
    if (written.shows || keepsCells) {
      ctx.journal.replaceBaseBlocks(t.doc, blocks);
      recordCollectionRows(ctx, t.doc, mergeRows(ctx, t.doc, rows));
    }
    // The file holding the new base (and nothing else changed since it was last synced) is the synced file now.
    if (written.synced !== null) ctx.journal.setFileHash(t.doc, written.synced);
    const next = { ...held };
    if (keepsCells) next[base.id] = { local: localHash, messages };
    else delete next[base.id];
    ctx.journal.setState(HELD, next);
  });
  for (const m of messages) result.problems.push({ path, message: m });
  return written.shows || keepsCells || written.gone ? 'done' : 'saved meanwhile';
}

/** `doc`'s recorded rows with this collection's replaced (the document's other tables keep theirs). */
function mergeRows(ctx: SyncContext, doc: string, fresh: ReturnType<typeof collectionRowsOf>) {
  const all = [...readCollectionRows(ctx).values()].filter((r) => r.doc === doc && !fresh.some((f) => f.id === r.id));
  return [...all.map(({ doc: _d, ...r }) => r), ...fresh];
}

interface Written {
  shows: boolean;
  synced: string | null;
  /** The file is gone or no longer text: nothing to look at again. */
  gone?: true;
}

/**
 * The file with its table replaced by the space's; the version replaced goes to the history when it
 * held what is lost. `shows`: the file holds the space's table now. `synced`: the file's hash when
 * it is now the synced file (what it was when last synced but for this table, which now says what
 * the base says); null when it is not (other edits, a save meanwhile), so the file is looked at again.
 */
async function writeTable(ctx: SyncContext, t: Table, markdown: string, keepVersion: boolean): Promise<Written> {
  const { path, seg } = t;
  const file = await readMirrorFile(ctx.root, path);
  if (!file || file.text === null) return { shows: false, synced: null, gone: true };
  if (file.text.slice(seg.start, seg.end) !== seg.text) return { shows: false, synced: null };
  const eol = seg.text.includes('\r\n') ? '\r\n' : '\n';
  const around = (table: string) => file.text.slice(0, seg.start) + table.replace(/\n/g, eol) + file.text.slice(seg.end);
  const wasSynced = hashText(around(t.base.markdown)) === ctx.journal.getDocument(t.doc)?.fileHash;
  const next = around(markdown);
  if (next === file.text) return { shows: true, synced: wasSynced ? file.hash : null };
  if (keepVersion) {
    await saveLocalVersion(ctx, { path, docId: t.doc, text: file.text, replacement: next, cause: 'conflict' });
  }
  const w = await writeFileIfUnchanged(ctx.root, path, next, file.hash, { ownWrites: ctx.ownWrites });
  return { shows: w.written, synced: wasSynced && w.written ? w.hash : null };
}
