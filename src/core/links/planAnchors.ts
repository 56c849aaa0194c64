// Which blocks inside documents the mirror's files link to, and how each is named, decided again from
// the bases (the files' form): a link `block://<block id>` the journal can place, or a link to an anchor
// the mirror wrote (`Roadmap.md#^a1b2c3d4`, `Roadmap.md#Goals`), makes its block an anchored one; its
// anchor is its heading's text or its short id (`anchorOf`), from its document's base as it is now. What
// changed (a first link, a last link gone, a heading renamed, a block moved to another document or
// deleted) gives each document concerned its base with the links and markers as a pull would now show
// them (and a `block://` link to a document that has gained a file since, its relative link); the shell
// writes those into the files and base alike. Nothing of it is sent: the space's `block://` links did
// not change.
import { markerOf, withMarker, withoutMarker } from '../../dialect/index.js';
import { anchorOf } from './anchorOf.js';
import { cardLayoutOf } from '../merge/cardLayout.js';
import { anchorLink, carriesMarker, holdsDocumentLinks, mapDestinations, readMdLink, relativePath, resolveLink, written } from './linkDocuments.js';
import type { Anchor, LinkTargets } from './linkDocuments.js';
import { hashBlock } from '../merge/hashBlock.js';
import type { BaseBlock, RemoteBlock } from '../types.js';

/** Block id → its anchor: the blocks inside documents that some file links to. */
export type AnchorTable = Readonly<Record<string, Anchor>>;
/** An anchor a block was named by before (a heading renamed, a link gone): links still written so read back as that block. */
export interface FormerAnchor extends Anchor {
  block: string;
}
export interface AnchorDoc {
  path: string;
  base: readonly BaseBlock[];
}

export interface PlanAnchorsInput {
  /** The documents to read links from: those whose base may link a block, those holding anchored blocks, those left to rewrite. */
  candidates: Iterable<string>;
  doc(id: string): AnchorDoc | undefined;
  /** The anchors as the files were last written with them. */
  table: AnchorTable;
  former: readonly FormerAnchor[];
  targets: Pick<LinkTargets, 'pathOf' | 'idOf'>;
  /** The document whose base holds the block now; undefined when the mirror has it nowhere. */
  documentOf(blockId: string): string | undefined;
}

export interface AnchorPlan {
  table: Record<string, Anchor>;
  former: FormerAnchor[];
  /** The documents whose base (and file) changes: the new base, block by block as before. */
  next: Map<string, BaseBlock[]>;
}

/** How many former anchors are remembered (the oldest go first). */
export const KEPT_FORMER = 500;

const keyOf = (doc: string, fragment: string) => `${doc}\u0000${fragment}`;

/** The block an anchor (a document and a fragment) written under `table`, or named so before (`former`), stands for. */
export function anchorResolver(table: AnchorTable, former: readonly FormerAnchor[]): (doc: string, fragment: string) => string | undefined {
  const byKey = new Map<string, string>();
  for (const f of former) byKey.set(keyOf(f.doc, f.fragment), f.block);
  for (const [block, a] of Object.entries(table)) byKey.set(keyOf(a.doc, a.fragment), block);
  return (doc, fragment) => byKey.get(keyOf(doc, fragment));
}

type Resolve = ReturnType<typeof anchorResolver>;

/** The destination `dest` of a link in the file `path` as a block inside a document: its id; undefined when it is no such link. */
function linkedBlock(dest: string, path: string, input: PlanAnchorsInput, resolve: Resolve): string | undefined {
  const d = dest.startsWith('<') ? dest.slice(1, -1) : dest;
  if (d.startsWith('block://')) {
    const id = d.slice('block://'.length);
    return id !== '' && input.targets.pathOf(id) === undefined ? id : undefined;
  }
  const link = readMdLink(dest);
  if (link?.fragment === undefined) return undefined;
  const target = resolveLink(path, link.path);
  const doc = target === null ? undefined : input.targets.idOf(target);
  return doc === undefined ? undefined : resolve(doc, link.fragment);
}

export function planAnchors(input: PlanAnchorsInput): AnchorPlan {
  const resolve = anchorResolver(input.table, input.former);
  const candidates = [...new Set(input.candidates)];
  const table = anchorsNow(input, candidates, resolve);

  // The names blocks lose are remembered: a file not rewritten yet still says them.
  const byKey = new Map(input.former.map((f) => [keyOf(f.doc, f.fragment), f]));
  for (const [block, was] of Object.entries(input.table)) {
    const now = table[block];
    if (now && now.doc === was.doc && now.fragment === was.fragment) continue;
    const k = keyOf(was.doc, was.fragment);
    byKey.delete(k);
    byKey.set(k, { ...was, block });
  }
  const former = [...byKey.values()].slice(-KEPT_FORMER);

  // The markers a block may carry: those its anchors, now and before, name.
  const owned = new Map<string, Set<string>>();
  const own = (block: string, fragment: string) => {
    if (fragment.startsWith('^')) owned.set(block, (owned.get(block) ?? new Set()).add(fragment.slice(1)));
  };
  for (const [block, a] of [...Object.entries(input.table), ...Object.entries(table)]) own(block, a.fragment);
  for (const f of input.former) own(f.block, f.fragment);

  const next = new Map<string, BaseBlock[]>();
  const docs = new Set([...candidates, ...Object.values(input.table).map((a) => a.doc), ...Object.values(table).map((a) => a.doc)]);
  for (const id of docs) {
    const d = input.doc(id);
    if (!d) continue;
    let changed = false;
    const base = d.base.map((b) => {
      const markdown = anchored(b, d.path, input, resolve, table, owned);
      if (markdown === b.markdown) return b;
      changed = true;
      return { ...b, markdown, hash: hashBlock(markdown, b.kind, cardLayoutOf(b).layout) };
    });
    if (changed) next.set(id, base);
  }
  return { table, former, next };
}

// The blocks linked now, from every candidate's base, and their anchors, from their documents as
// they are now; a block the mirror has nowhere has none.
function anchorsNow(input: PlanAnchorsInput, candidates: readonly string[], resolve: Resolve): Record<string, Anchor> {
  const linked = new Set<string>();
  for (const id of candidates) {
    const d = input.doc(id);
    for (const b of d?.base ?? []) {
      if (!holdsDocumentLinks(b.type) || !b.markdown.includes('](')) continue;
      mapDestinations(b.markdown, (dest) => {
        const block = linkedBlock(dest, d!.path, input, resolve);
        if (block !== undefined) linked.add(block);
        return dest;
      });
    }
  }
  const table: Record<string, Anchor> = {};
  for (const block of [...linked].sort()) {
    const doc = input.documentOf(block);
    const base = doc === undefined ? undefined : input.doc(doc)?.base;
    const fragment = base && anchorOf(block, base);
    if (doc !== undefined && fragment !== undefined) table[block] = { doc, fragment };
  }
  return table;
}

// A block's markdown as the pull would now show it: links to anchors as the new table names them,
// a link to a block the mirror no longer has as the space holds it, markers where they belong.
function anchored(b: BaseBlock, path: string, input: PlanAnchorsInput, resolve: Resolve, table: AnchorTable, owned: ReadonlyMap<string, Set<string>>): string {
  let md = b.markdown;
  if (holdsDocumentLinks(b.type) && md.includes('](')) {
    md = mapDestinations(md, (dest) => {
      // A link to a document that had no file here when it was written (its folder a symbolic link,
      // held back): now that it has one, the relative link a pull would write.
      const d = dest.startsWith('<') ? dest.slice(1, -1) : dest;
      const target = d.startsWith('block://') ? input.targets.pathOf(d.slice('block://'.length)) : undefined;
      if (target !== undefined) return written(relativePath(path, target));
      const block = linkedBlock(dest, path, input, resolve);
      if (block === undefined) return dest;
      const now = table[block];
      if (now === undefined) return /^<?block:\/\//.test(dest) ? dest : `block://${block}`;
      return anchorLink(path, now, input.targets) ?? dest;
    });
  }
  if (b.kind === 'block') {
    const marker = markerOf(md);
    if (marker !== undefined && owned.get(b.id)?.has(marker)) md = withoutMarker(md, marker);
    const fragment = table[b.id]?.fragment;
    if (fragment?.startsWith('^') && carriesMarker(b.kind, b.type, md)) md = withMarker(md, fragment.slice(1));
  }
  return md;
}

// The marker ` ^<short id>` on each block of a document's base that a file links to by it (`anchorOf`
// says so), as a pull shows it: the base a push records from the service's answers (which never hold
// markers) says what the file says.
/** `base` with the markers its anchored blocks carry; the same array when none is missing. */
export function markAnchors(base: readonly BaseBlock[], anchorOf: (id: string) => Anchor | undefined): readonly BaseBlock[] {
  let changed = false;
  const out = base.map((b) => {
    const fragment = anchorOf(b.id)?.fragment;
    if (!fragment?.startsWith('^') || !carriesMarker(b.kind, b.type, b.markdown)) return b;
    const markdown = withMarker(b.markdown, fragment.slice(1));
    if (markdown === b.markdown) return b;
    changed = true;
    return { ...b, markdown, hash: hashBlock(markdown, b.kind, cardLayoutOf(b).layout) };
  });
  return changed ? out : base;
}

// A block of the service's that differs from base only by the marker the sync puts on blocks other
// files link to (added or removed since base was recorded, while its file was being edited) is no
// change there: the merge takes base's form for it, so the marker never makes a conflict. The marker
// follows later, when the file is rewritten to the anchors.

/** `remote` with base's markdown for each block that differs from it only by one of its own markers (`owned`); the same array when none does. */
export function keepBaseMarkers(remote: RemoteBlock[], base: readonly BaseBlock[], owned: (blockId: string) => ReadonlySet<string>): RemoteBlock[] {
  const byId = new Map(base.map((b) => [b.id, b]));
  const bare = (id: string, markdown: string) => {
    const marker = markerOf(markdown);
    return marker !== undefined && owned(id).has(marker) ? withoutMarker(markdown, marker) : markdown;
  };
  let changed = false;
  const out = remote.map((r) => {
    const b = byId.get(r.id);
    if (!b || b.markdown === r.markdown || bare(r.id, r.markdown) !== bare(r.id, b.markdown)) return r;
    changed = true;
    return { ...r, markdown: b.markdown };
  });
  return changed ? out : remote;
}
