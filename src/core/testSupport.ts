// Small builders for the core's tests: base blocks, local blocks and remote trees from terse descriptions.
import type { Block } from '../dialect/index.js';
import { flattenRemote } from './flattenRemote.js';
import { hashBlock } from './hashBlock.js';
import type { BaseBlock, BlockKind, LocalBlock, RemoteBlock } from './types.js';

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
