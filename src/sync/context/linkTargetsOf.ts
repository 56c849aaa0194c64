// Where the mirror holds each document, as the journal has it now, and how it names the blocks inside
// documents that files link to: what the pull's relative links and anchors point to and what the push
// reads them back as (core/links/linkDocuments); and the moves whose links have not followed yet.
import { anchorOf as fragmentOf, blockAtFragment, type AnchorBlock } from '../../core/links/anchorOf.js';
import type { Anchor, LinkTargets } from '../../core/links/linkDocuments.js';
import { anchorResolver, type AnchorTable, type FormerAnchor } from '../../core/links/planAnchors.js';
import type { Journal } from '../../journal/index.js';

/** State key: the paths documents were moved away from (old path → new path), the latest last. */
export const FORMER_PATHS = 'links.formerPaths';
/** State key: the documents whose links a move made stale while their file was being edited. */
export const RELINK_PENDING = 'links.pending';
/** State key: of those, each moved file whose own links are still written from where it was (document id → that path). */
export const RELINK_PENDING_FROM = 'links.pendingFrom';
/** State key: the blocks inside documents that files link to, each with its anchor (block id → document and fragment). */
export const ANCHORS = 'links.anchors';
/** State key: anchors blocks were named by before (the last 500), so a file not rewritten yet still reads back. */
export const FORMER_ANCHORS = 'links.formerAnchors';
/** State key: the documents whose links to anchors or markers are to be rewritten, left while their file was being edited. */
export const ANCHORS_PENDING = 'links.anchorsPending';

export interface LinkTargetOptions {
  /**
   * The push's: a typed link to a block the mirror names no anchor for yet is read from its
   * document's base (`#^<short id>`, `#<heading>`); each block found so is added here with its anchor.
   */
  typed?: Map<string, Anchor>;
  /**
   * The push's: the service's blocks of a document it read to merge, where a typed link's block is
   * looked for when the base has none such (one a run stopped before its answer was recorded made).
   */
  read?: (doc: string) => readonly AnchorBlock[] | undefined;
}

/**
 * `local`: paths of files the push is sending from where they are now (moved here, not recorded
 * yet), by document id. A path a document was moved away from still names it while no other
 * document is there (a file edited during the move keeps its links until it is relinked).
 */
export function linkTargetsOf(journal: Journal, local?: ReadonlyMap<string, string>, opts: LinkTargetOptions = {}): LinkTargets {
  let former: Record<string, string> | undefined;
  let anchors: AnchorTable | undefined;
  let resolve: ReturnType<typeof anchorResolver> | undefined;
  const table = () => (anchors ??= journal.getState<AnchorTable>(ANCHORS) ?? {});
  return {
    pathOf: (id) => journal.getDocument(id)?.path,
    idOf: (path) => {
      const id = local?.get(path) ?? journal.getDocumentByPath(path)?.id;
      if (id !== undefined) return id;
      former ??= journal.getState<Record<string, string>>(FORMER_PATHS) ?? {};
      const now = Object.hasOwn(former, path) ? former[path] : undefined;
      return now === undefined ? undefined : journal.getDocumentByPath(now)?.id;
    },
    anchorOf: (id) => opts.typed?.get(id) ?? (Object.hasOwn(table(), id) ? table()[id] : undefined),
    blockAt: (doc, fragment) => {
      resolve ??= anchorResolver(table(), journal.getState<FormerAnchor[]>(FORMER_ANCHORS) ?? []);
      const known = resolve(doc, fragment);
      if (known !== undefined || opts.typed === undefined) return known;
      let blocks: readonly AnchorBlock[] = journal.getBaseBlocks(doc);
      let block = blockAtFragment(blocks, fragment);
      const read = block === undefined ? opts.read?.(doc) : undefined;
      if (read) block = blockAtFragment((blocks = read), fragment);
      const anchor = block === undefined ? undefined : fragmentOf(block, blocks);
      if (block !== undefined && anchor !== undefined && !Object.hasOwn(table(), block)) opts.typed.set(block, { doc, fragment: anchor });
      return block;
    },
  };
}

/** The markers the sync wrote or writes on each block (its short ids, now and before): those a push takes off before sending. */
export function ownMarkersOf(journal: Journal): (blockId: string) => ReadonlySet<string> {
  let owned: Map<string, Set<string>> | undefined;
  const none: ReadonlySet<string> = new Set();
  return (blockId) => {
    if (!owned) {
      owned = new Map();
      const table = journal.getState<AnchorTable>(ANCHORS) ?? {};
      const all = [...Object.entries(table).map(([block, a]) => ({ ...a, block })), ...(journal.getState<FormerAnchor[]>(FORMER_ANCHORS) ?? [])];
      for (const a of all) if (a.fragment.startsWith('^')) owned.set(a.block, (owned.get(a.block) ?? new Set()).add(a.fragment.slice(1)));
    }
    return owned.get(blockId) ?? none;
  };
}

/** Records the anchors a push found for typed links, before it sends them: its answers then show as the file does. */
export function recordTypedAnchors(journal: Journal, typed: ReadonlyMap<string, Anchor>): void {
  if (typed.size === 0) return;
  const table = { ...(journal.getState<AnchorTable>(ANCHORS) ?? {}) };
  for (const [block, anchor] of typed) table[block] ??= anchor;
  journal.setState(ANCHORS, table);
}

/** The paths a document's file had before it was moved to `path` (latest first), as the relinks noted them. */
export function formerPathsOf(journal: Journal, path: string): string[] {
  const former = journal.getState<Record<string, string>>(FORMER_PATHS) ?? {};
  return Object.keys(former)
    .filter((k) => former[k] === path)
    .reverse();
}

/** A document moved, on either side, whose links have not followed yet: from where they were last written to where it is now. */
export interface DocumentMove {
  id: string;
  from: string;
  to: string;
}

/**
 * The moves the journal noted (each in the write that made it), one per document: from where the
 * links to it were last written to where it is now; `ownFrom`: where a moved file's own relative links
 * were last written from; `seq`: the last noted, to clear them by.
 */
export function notedMoves(journal: Journal) {
  const steps = journal.pendingMoves();
  const first = new Map<string, string>();
  const ownFrom = new Map<string, string>();
  for (const m of steps) {
    if (!first.has(m.id)) first.set(m.id, m.from);
    if (!m.ownDone && !ownFrom.has(m.id)) ownFrom.set(m.id, m.from);
  }
  const moves: DocumentMove[] = [];
  for (const [id, from] of first) {
    const to = journal.getDocument(id)?.path;
    if (to !== undefined && to !== from) moves.push({ id, from, to });
  }
  return { moves, steps, ownFrom, seq: steps.length > 0 ? steps[steps.length - 1]!.seq : 0 };
}
