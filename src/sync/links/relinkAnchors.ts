// Links to blocks inside documents follow what happened to them: a first link to a block puts its
// marker on its line, the last one gone takes it off, a heading renamed renames the links to it, a
// block gone (or moved to another document) changes the links to it (core/links/planAnchors). Like a move's
// relink, a local-only rewrite: the space's `block://` links did not change, so nothing is sent. A
// file is rewritten only while it holds what the sync last wrote or read; one being edited is left as
// it is and tried again after each later cycle (its links still read back through the former anchors).
// It runs after a pull read documents and after a push recorded them, only when some base changed
// since it last ran in this process.
import { planAnchors, type AnchorDoc, type AnchorTable, type FormerAnchor } from '../../core/links/planAnchors.js';
import { rewriteFileBlocks } from '../../core/merge/alignFile.js';
import type { BaseBlock } from '../../core/types.js';
import type { Journal } from '../../journal/index.js';
import { linkOnTheWay, readMirrorFile, writeFileIfUnchanged } from '../../mirror/index.js';
import { ANCHORS, ANCHORS_PENDING, FORMER_ANCHORS, linkTargetsOf, type SyncContext } from '../context/index.js';

interface Seen {
  /** The journal's base generation and data version when this last ran. */
  generation: number;
  dataVersion: number;
  /** Blocks some file links to that no base held at that generation: only bases written since are searched for them. */
  missing: Set<string>;
}
const seen = new WeakMap<Journal, Seen>();

/** The document holding each block asked for: the anchor's own document first, then every base, read once a run (and only those written since, for blocks known to be nowhere). */
function blockFinder(journal: Journal, table: AnchorTable, doc: (id: string) => AnchorDoc | undefined, last: Seen | undefined, missing: Set<string>) {
  let index: Map<string, string> | undefined;
  let recent: Map<string, string> | undefined;
  const indexOf = (ids: readonly string[]) => {
    const out = new Map<string, string>();
    for (const id of ids) for (const b of journal.getBaseBlocks(id)) out.set(b.id, id);
    return out;
  };
  return (block: string): string | undefined => {
    const anchored = table[block]?.doc;
    if (anchored !== undefined && doc(anchored)?.base.some((b) => b.id === block)) return anchored;
    if (last?.missing.has(block) && !index) {
      // Nowhere at the last look: only a base written since can hold it.
      recent ??= indexOf(journal.basesReplacedSince(last.generation));
      const found = recent.get(block);
      if (found === undefined) missing.add(block);
      return found;
    }
    index ??= indexOf(journal.listDocuments().map((r) => r.id));
    const found = index.get(block);
    if (found === undefined) missing.add(block);
    return found;
  };
}

/** Rewrites the links to anchors and the markers that changed; returns the files rewritten. */
export async function relinkAnchors(ctx: SyncContext): Promise<string[]> {
  const { journal } = ctx;
  if (ctx.readOnly) return [];
  const pending = journal.getState<string[]>(ANCHORS_PENDING) ?? [];
  const last = seen.get(journal);
  const dataVersion = journal.dataVersion();
  // Another process's writes are not counted in this one's generation: then everything is searched again.
  const trusted = last !== undefined && last.dataVersion === dataVersion ? last : undefined;
  if (trusted && trusted.generation === journal.baseGeneration() && pending.length === 0) return [];

  const table = journal.getState<AnchorTable>(ANCHORS) ?? {};
  const former = journal.getState<FormerAnchor[]>(FORMER_ANCHORS) ?? [];
  const candidates = new Set([...journal.documentsWithAnchorLinks().keys(), ...Object.values(table).map((a) => a.doc), ...pending]);
  const bases = new Map<string, BaseBlock[]>();
  const doc = (id: string): AnchorDoc | undefined => {
    const rec = journal.getDocument(id);
    if (!rec || rec.fileHash === null) return undefined;
    let base = bases.get(id);
    if (!base) bases.set(id, (base = journal.getBaseBlocks(id)));
    return { path: rec.path, base };
  };
  const missing = new Set<string>();
  const plan = planAnchors({
    candidates,
    doc,
    table,
    former,
    targets: linkTargetsOf(journal),
    documentOf: blockFinder(journal, table, doc, trusted, missing),
  });

  // The anchors first, with the documents still to rewrite: a run stopped in between rewrites them next time.
  const rewrite = [...plan.next.keys()];
  const same = JSON.stringify(plan.table) === JSON.stringify(table) && JSON.stringify(plan.former) === JSON.stringify(former);
  if (!same || rewrite.length > 0 || pending.length > 0) {
    journal.transaction(() => {
      journal.setState(ANCHORS, plan.table);
      journal.setState(FORMER_ANCHORS, plan.former);
      if (rewrite.length > 0) journal.setState(ANCHORS_PENDING, rewrite);
      else journal.deleteState(ANCHORS_PENDING);
    });
  }
  const { written, stillPending } = await rewriteFiles(ctx, rewrite, bases, plan.next);
  if (stillPending.length !== rewrite.length) {
    if (stillPending.length > 0) journal.setState(ANCHORS_PENDING, stillPending);
    else journal.deleteState(ANCHORS_PENDING);
  }
  seen.set(journal, { generation: journal.baseGeneration(), dataVersion: journal.dataVersion(), missing });
  return written;
}

/**
 * Rewrites each document's file with its new links and markers, only while it holds what the sync
 * last wrote or read (else it waits: `stillPending`), and records its new base.
 */
async function rewriteFiles(
  ctx: SyncContext,
  rewrite: readonly string[],
  bases: ReadonlyMap<string, BaseBlock[]>,
  nexts: ReadonlyMap<string, BaseBlock[]>,
): Promise<{ written: string[]; stillPending: string[] }> {
  const { journal } = ctx;
  const stillPending: string[] = [];
  const written: string[] = [];
  for (const id of rewrite) {
    const rec = journal.getDocument(id)!;
    const base = bases.get(id)!;
    const next = nexts.get(id)!;
    // Under a symbolic link (a folder replaced by one): neither read nor written through it; it waits.
    const file = linkOnTheWay(ctx.root, rec.path) === null ? await readMirrorFile(ctx.root, rec.path) : null;
    if (!file || file.text === null || file.hash !== rec.fileHash) {
      stillPending.push(id);
      continue;
    }
    const text = rewriteFileBlocks(file.text, base, next);
    if (text === null) {
      ctx.logger.warn(
        { doc: id, path: rec.path },
        `The links to blocks in "${rec.path}" could not be rewritten in place; they follow when the document next changes.`,
      );
      continue;
    }
    const w = await writeFileIfUnchanged(ctx.root, rec.path, text, file.hash, { ownWrites: ctx.ownWrites });
    if (!w.written) {
      stillPending.push(id);
      continue;
    }
    journal.transaction(() => {
      journal.replaceBaseBlocks(id, next);
      journal.setFileHash(id, w.hash);
    });
    written.push(rec.path);
    ctx.logger.info({ doc: id, path: rec.path }, 'links to blocks relinked');
  }
  return { written, stillPending };
}
