// Small builders for the core's tests: base blocks, local blocks and remote trees from terse descriptions.
import type { Block } from '../../src/dialect/index.js';
import { flattenRemote } from '../../src/core/pull/flattenRemote.js';
import { hashBlock } from '../../src/core/merge/hashBlock.js';
import type { BaseBlock, BlockKind, LocalBlock, RemoteBlock } from '../../src/core/types.js';
import { mergeDocument, type MergedNode } from '../../src/core/merge/merge.js';
import { changeSetOf, type ChangeSet, type NewBlockSpec } from '../../src/core/merge/changeSet.js';
import { coreDialect } from '../../src/core/merge/mergeFile.js';
import { diffDocument } from '../../src/core/merge/diff.js';
import type { Anchor } from '../../src/core/types.js';

/** `[id, markdown]` for a plain text block, `[id, title, children, kind?]` for a page or card. */
export type Spec = [string, string] | [string, string, Spec[], ('page' | 'card')?] | { id: string; markdown: string; type: string; kind?: BlockKind };

/** A document's remote tree from specs (a root page holding them). */
export function tree(specs: readonly Spec[], rootId = 'DOC'): Block {
  const build = (s: Spec): Block => {
    if (!Array.isArray(s)) {
      const b: Block = { id: s.id, type: s.type as Block['type'], markdown: s.markdown };
      return b;
    }
    if (s.length === 2) return { id: s[0], type: 'text', markdown: s[1] };
    const b: Block = { id: s[0], type: 'page', markdown: s[1], content: s[2].map(build) };
    if (s[3] === 'card') b.textStyle = 'card';
    return b;
  };
  return { id: rootId, type: 'page', markdown: 'Doc', content: specs.map(build) };
}

export function remoteOf(specs: readonly Spec[]): RemoteBlock[] {
  return flattenRemote(tree(specs));
}

export function baseOf(specs: readonly Spec[] | Block): BaseBlock[] {
  const root = Array.isArray(specs) ? tree(specs) : (specs as Block);
  return flattenRemote(root).map((b) => ({ ...b, hash: hashBlock(b.markdown, b.kind) }));
}

export const blk = (markdown: string): LocalBlock => ({ markdown, kind: 'block', children: [] });
export const pg = (title: string, children: LocalBlock[] = [], kind: 'page' | 'card' = 'page'): LocalBlock => ({ markdown: title, kind, children });
export const ro = (markdown: string): LocalBlock => ({ markdown, kind: 'readonly', children: [] });

/** The local blocks a base would render to (no file involved). */
export function localOfSpecs(specs: readonly Spec[]): LocalBlock[] {
  return specs.map((s) => {
    if (!Array.isArray(s)) return { markdown: s.markdown, kind: s.kind ?? 'block', children: [] };
    return s.length === 2 ? blk(s[1]) : pg(s[1], localOfSpecs(s[2]), s[3] ?? 'page');
  });
}

/** Whether a change set sends nothing. */
export function isEmptyChangeSet(c: ChangeSet): boolean {
  return c.edits.length === 0 && c.moves.length === 0 && c.inserts.length === 0 && c.lateMoves.length === 0 && c.deletes.length === 0;
}

/** Runs a change set against a document's blocks the way the service does (edits → moves → inserts → late moves → deletes). */
export function applyChanges(current: readonly RemoteBlock[], cs: ChangeSet, idFor: (ref: string) => string = (r) => r): RemoteBlock[] {
  interface N {
    b: RemoteBlock;
    children: N[];
  }
  const byId = new Map<string, N>();
  const root: N = { b: { id: '', parentId: null, position: 0, level: 0, kind: 'page', type: 'page', markdown: '' }, children: [] };
  const parentOf = new Map<N, N>();
  for (const b of current) byId.set(b.id, { b: { ...b }, children: [] });
  for (const b of [...current].sort((x, y) => x.position - y.position)) {
    const p = b.parentId === null ? root : byId.get(b.parentId)!;
    p.children.push(byId.get(b.id)!);
    parentOf.set(byId.get(b.id)!, p);
  }
  const detach = (n: N) => {
    const p = parentOf.get(n)!;
    p.children.splice(p.children.indexOf(n), 1);
  };
  const real = (x: string) => (x.startsWith('new:') ? idFor(x) : x);
  const placeAt = (anchor: Anchor): [N, number] => {
    if ('after' in anchor) {
      const s = byId.get(real(anchor.after));
      if (!s) throw new Error(`anchor ${anchor.after} does not exist`);
      const p = parentOf.get(s)!;
      return [p, p.children.indexOf(s) + 1];
    }
    const p = anchor.start === null ? root : byId.get(real(anchor.start));
    if (!p) throw new Error(`parent ${anchor.start} does not exist`);
    return [p, 0];
  };
  for (const e of cs.edits) {
    const n = byId.get(e.id);
    if (!n) throw new Error(`edit of missing ${e.id}`);
    n.b.markdown = e.markdown;
  }
  for (const m of cs.moves) {
    const nodes = m.ids.map((id) => byId.get(id)!);
    nodes.forEach(detach);
    const [p, at] = placeAt(m.anchor);
    p.children.splice(at, 0, ...nodes);
    nodes.forEach((n) => parentOf.set(n, p));
  }
  const build = (s: NewBlockSpec): N => {
    const n: N = { b: { id: idFor(s.ref), parentId: null, position: 0, level: 0, kind: s.kind, type: s.type, markdown: s.markdown }, children: [] };
    byId.set(n.b.id, n);
    for (const c of s.children) {
      const cn = build(c);
      n.children.push(cn);
      parentOf.set(cn, n);
    }
    return n;
  };
  for (const ins of cs.inserts) {
    const [p, at] = placeAt(ins.anchor);
    const nodes = ins.blocks.map(build);
    p.children.splice(at, 0, ...nodes);
    nodes.forEach((n) => parentOf.set(n, p));
  }
  for (const m of cs.lateMoves) {
    const nodes = m.ids.map((id) => byId.get(id)!);
    nodes.forEach(detach);
    const [p, at] = placeAt(m.anchor);
    p.children.splice(at, 0, ...nodes);
    nodes.forEach((n) => parentOf.set(n, p));
  }
  for (const id of cs.deletes) {
    const n = byId.get(id);
    if (!n) throw new Error(`delete of missing ${id}`);
    detach(n);
  }
  const out: RemoteBlock[] = [];
  const walk = (n: N, parentId: string | null) =>
    n.children.forEach((c, i) => {
      out.push({ ...c.b, parentId, position: i });
      walk(c, c.b.id);
    });
  walk(root, null);
  return out;
}

/** A tree as `markdown` strings nested by kind, for comparing documents whatever their ids. */
export type Outline = Array<string | [string, Outline]>;

export function outlineOfRemote(blocks: readonly RemoteBlock[], parentId: string | null = null): Outline {
  return blocks
    .filter((b) => b.parentId === parentId)
    .sort((x, y) => x.position - y.position)
    .map((b) => (b.kind === 'page' || b.kind === 'card' ? [`${b.kind}:${b.markdown}`, outlineOfRemote(blocks, b.id)] : b.markdown));
}

export function outlineOfLocal(blocks: readonly LocalBlock[]): Outline {
  return blocks.map((b) => (b.kind === 'page' || b.kind === 'card' ? [`${b.kind}:${b.markdown}`, outlineOfLocal(b.children)] : b.markdown));
}

export function outlineOfMerged(nodes: readonly MergedNode[], view: 'file' | 'service'): Outline {
  const out: Outline = [];
  for (const n of nodes) {
    if (view === 'service' && n.held) continue;
    const md = view === 'file' && n.source === 'local' && n.local ? n.local.markdown : n.markdown;
    out.push(n.kind === 'page' || n.kind === 'card' ? [`${n.kind}:${md}`, outlineOfMerged(n.children, view)] : md);
  }
  return out;
}

// Random edits of a document tree, for the merge's property tests: `T` is a block with its id
// (null when new in the file), edited and moved by `Op`s whose texts and ids are unique per run.
export interface T {
  id: string | null;
  md: string;
  kind: 'block' | 'page';
  children: T[];
}

const clone = (ts: T[]): T[] => ts.map((t) => ({ ...t, children: clone(t.children) }));
const flat = (ts: T[], out: Array<{ t: T; list: T[] }> = []) => {
  for (const t of ts) {
    out.push({ t, list: ts });
    flat(t.children, out);
  }
  return out;
};
const contains = (t: T, x: T): boolean => t === x || t.children.some((c) => contains(c, x));

export type Op =
  | { op: 'edit'; at: number }
  | { op: 'delete'; at: number }
  | { op: 'insert'; at: number; page: boolean; into: boolean }
  | { op: 'move'; at: number; to: number };

export function applyOps(doc: T[], ops: Op[], side: 'L' | 'R'): T[] {
  const root = clone(doc);
  let n = 0;
  for (const o of ops) {
    const all = flat(root);
    n++;
    if (o.op === 'insert') {
      const fresh: T = { id: side === 'R' ? `RN${n}` : null, md: `${side}-new ${n}`, kind: o.page ? 'page' : 'block', children: [] };
      if (o.page) fresh.children.push({ id: side === 'R' ? `RN${n}c` : null, md: `${side}-child ${n}`, kind: 'block', children: [] });
      if (all.length === 0) root.push(fresh);
      else {
        const { t, list } = all[o.at % all.length]!;
        if (o.into && t.kind === 'page') t.children.unshift(fresh);
        else list.splice(list.indexOf(t) + 1, 0, fresh);
      }
      continue;
    }
    if (all.length === 0) continue;
    const { t, list } = all[o.at % all.length]!;
    if (o.op === 'edit') t.md = `${t.md} ${side}${n}`;
    else if (o.op === 'delete') list.splice(list.indexOf(t), 1);
    else {
      const target = all[o.to % all.length]!;
      if (contains(t, target.t)) continue;
      list.splice(list.indexOf(t), 1);
      target.list.splice(target.list.indexOf(target.t) + 1, 0, t);
    }
  }
  return root;
}

export const toLocal = (ts: T[]): LocalBlock[] => ts.map((t) => ({ markdown: t.md, kind: t.kind, children: toLocal(t.children) }));
export function toRemote(ts: T[], parentId: string | null = null, out: RemoteBlock[] = []): RemoteBlock[] {
  ts.forEach((t, i) => {
    out.push({ id: t.id!, parentId, position: i, level: 0, kind: t.kind, type: t.kind === 'page' ? 'page' : 'text', markdown: t.md });
    toRemote(t.children, t.id, out);
  });
  return out;
}
export const toBase = (rs: readonly RemoteBlock[]): BaseBlock[] => rs.map((r) => ({ ...r, hash: hashBlock(r.markdown, r.kind) }));

/** diff → merge → change set → the service's blocks afterwards, with the real dialect. */
export function runMerge(base: readonly BaseBlock[], local: LocalBlock[], remote: readonly RemoteBlock[] | undefined) {
  const diff = diffDocument(base, local, { equals: coreDialect.equals });
  const m = mergeDocument({ base, diff, remote, dialect: coreDialect });
  const cs = changeSetOf(m.nodes, remote ?? base, coreDialect.equals, { moveIntoNewPages: true });
  return { diff, m, cs, after: applyChanges(remote ?? base, cs) };
}
