// The base to record once a push went through: the change set's expected document, with the ids
// the service gave its new blocks, and its own (canonical) markdown where its answers carried it.
import { splitTaskDates, withTaskDates, type Block, type TaskDates } from '../../dialect/index.js';
import { markdownOf } from '../pull/flattenRemote.js';
import type { ChangeSet } from './changeSet.js';
import { hashBlock } from './hashBlock.js';
import { blockRef } from '../push/plan.js';
import type { BaseBlock } from '../types.js';

/**
 * Every block an answer of `PUT /blocks` or `POST /blocks` holds, by id, with the markdown the file
 * would show. Items that are only ids (the answer of `PUT /blocks/move`) say nothing of the text.
 */
export function blocksOfAnswer(answer: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: readonly Block[]) => {
    for (const b of list) {
      if (typeof b?.id !== 'string') continue;
      if (typeof b.type === 'string') out.set(b.id, markdownOf(b));
      if (b.content) walk(b.content);
    }
  };
  const items = (answer as { items?: Block[] } | null)?.items;
  if (Array.isArray(items)) walk(items);
  return out;
}

/**
 * The dates a `PUT /tasks` answer gives its tasks, put into the markdown an earlier answer recorded
 * for them (its text holds no dates: a task's `markdown` there is its bare text). A task no answer
 * named before keeps the expected markdown, which already has the file's dates.
 */
export function datesOfAnswer(answer: unknown, answered: Map<string, string>): void {
  const items = (answer as { items?: Array<{ id?: unknown; taskInfo?: TaskDates }> } | null)?.items;
  if (!Array.isArray(items)) return;
  for (const t of items) {
    if (typeof t?.id !== 'string' || !answered.has(t.id)) continue;
    answered.set(t.id, withTaskDates(splitTaskDates(answered.get(t.id)!).markdown, t.taskInfo));
  }
}

/**
 * The document's new base, or undefined when a new block's id is not known (an answer did not name
 * it): then the shell re-reads the document and records that instead.
 */
export function baseAfter(
  cs: ChangeSet,
  doc: string,
  ids: ReadonlyMap<string, string>,
  answered: Pick<ReadonlyMap<string, string>, 'get'> = new Map(),
): BaseBlock[] | undefined {
  const idOf = (x: string | null): string | null | undefined => {
    if (x === null) return null;
    if (!x.startsWith('new:')) return x;
    return ids.get(blockRef(doc, x));
  };
  const out: BaseBlock[] = [];
  for (const e of cs.expected) {
    const id = idOf(e.id);
    const parentId = idOf(e.parentId);
    if (!id || parentId === undefined) return undefined;
    const markdown = answered.get(id) ?? e.markdown;
    out.push({ ...e, id, parentId, markdown, hash: hashBlock(markdown, e.kind, e.cardLayout) });
  }
  return out;
}

// Where a block a request put into the space goes in the base: right after a sibling (after that
// sibling's whole subtree, in the base's pre-order), or first under its parent; the siblings after
// it move down one place. Used for an upload, whose answer names only the new block.

/** `base` with `block` inserted after the sibling `after` (its whole subtree), or first under its parent. */
export function insertBase(base: readonly BaseBlock[], block: Omit<BaseBlock, 'position' | 'level'>, after: string | null): BaseBlock[] {
  const siblings = base.filter((b) => b.parentId === block.parentId);
  const prev = after === null ? undefined : siblings.find((b) => b.id === after);
  const position = prev ? prev.position + 1 : 0;
  const parent = block.parentId === null ? undefined : base.find((b) => b.id === block.parentId);
  const level = prev?.level ?? siblings[0]?.level ?? (parent ? parent.level + 1 : 0);
  let at: number;
  if (prev) {
    // After the sibling and its descendants (pre-order).
    const inside = new Set([prev.id]);
    at = base.indexOf(prev) + 1;
    while (at < base.length && base[at]!.parentId !== null && inside.has(base[at]!.parentId!)) inside.add(base[at++]!.id);
  } else at = parent ? base.indexOf(parent) + 1 : 0;
  const shifted = base.map((b) => (b.parentId === block.parentId && b.position >= position ? { ...b, position: b.position + 1 } : b));
  return [...shifted.slice(0, at), { ...block, position, level }, ...shifted.slice(at)];
}
