// Three-way merge of a whiteboard's elements, keyed by element id: base (last agreed), local (the
// scene file read back), remote (the service). One side's change is taken; the same element changed
// on both sides goes to the later edit whole, and the other side's version is named as lost (the
// shell keeps it in the version history); an edit beats a delete. The result says what to send:
// only the changed properties of an element (PUT), new elements (POST), removed ids (DELETE).
import type { WhiteboardElement } from './sceneOfWhiteboard.js';

export interface WhiteboardMerge {
  /** The elements as the service holds them once the requests below are applied, in its order. */
  elements: WhiteboardElement[];
  /** `PUT …/elements`: each with its id and only the properties that change. */
  put: WhiteboardElement[];
  /** `POST …/elements`: new elements, whole. */
  post: WhiteboardElement[];
  /** `DELETE …/elements`. */
  remove: string[];
  /** Elements edited on both sides: the side whose version lost. */
  conflicts: Array<{ id: string; lost: 'local' | 'remote' }>;
}

/** Whether two elements say the same: every property equal (a missing one and null alike). */
export function sameElement(a: WhiteboardElement, b: WhiteboardElement): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!sameValue(a[k], b[k])) return false;
  return true;
}

/** The properties of `to` that differ from `from`, with the id; a property `to` lacks is sent as null (or '' for text). */
export function changedProperties(from: WhiteboardElement, to: WhiteboardElement): WhiteboardElement {
  const out: WhiteboardElement = { id: to.id };
  for (const k of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (k === 'id' || sameValue(from[k], to[k])) continue;
    out[k] = Object.hasOwn(to, k) ? to[k] : k === 'text' ? '' : null;
  }
  return out;
}

/**
 * `base` null: no agreement yet (a first sync). `localNewer`: the file's edit is later than the
 * service's (decides an element changed on both sides).
 */
export function mergeWhiteboard(
  base: readonly WhiteboardElement[] | null,
  local: readonly WhiteboardElement[],
  remote: readonly WhiteboardElement[],
  localNewer: boolean,
): WhiteboardMerge {
  const baseById = new Map((base ?? []).map((e) => [e.id, e]));
  const localById = new Map(local.map((e) => [e.id, e]));
  const out: WhiteboardMerge = { elements: [], put: [], post: [], remove: [], conflicts: [] };
  for (const r of remote) {
    const b = baseById.get(r.id);
    const l = localById.get(r.id);
    if (!l) {
      // Gone from the file: deleted there, unless the service changed it since (an edit beats a delete).
      if (b && sameElement(b, r)) out.remove.push(r.id);
      else out.elements.push(r);
      continue;
    }
    const localChanged = !b || !sameElement(b, l);
    const remoteChanged = !b || !sameElement(b, r);
    if (!localChanged || sameElement(l, r)) {
      out.elements.push(r);
    } else if (!remoteChanged || localNewer) {
      const put = changedProperties(r, l);
      out.put.push(put);
      out.elements.push({ ...r, ...put });
      if (remoteChanged) out.conflicts.push({ id: r.id, lost: 'remote' });
    } else {
      out.elements.push(r);
      out.conflicts.push({ id: r.id, lost: 'local' });
    }
  }
  const remoteIds = new Set(remote.map((e) => e.id));
  for (const l of local) {
    if (remoteIds.has(l.id)) continue;
    const b = baseById.get(l.id);
    // New in the file, or deleted by the service but changed in the file since (re-created).
    if (!b || !sameElement(b, l)) {
      out.post.push(l);
      out.elements.push(l);
    }
  }
  return out;
}

// Deep equality of JSON values, key order aside: two element properties say the same thing.
/** The value as JSON with object keys sorted: equal strings for equal values. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** Whether `a` and `b` are the same JSON value; a missing value and null are the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}
