// The text of an `.excalidraw` file → the whiteboard's elements in the service's form: what
// sceneOfWhiteboard added is taken away again (defaults the service did not have, labels, the
// properties kept aside in `customData.spacesync`), so an untouched scene reads back as its base.
// Bookkeeping Excalidraw changes on every edit (version, nonce, time, order index) is never sent.
import { excalidrawDefaults, takesLabel } from './excalidrawDefaults.js';
import { KEPT_KEY, labelIdOf, type WhiteboardElement } from './sceneOfWhiteboard.js';
import { sameValue } from './mergeWhiteboard.js';

export type SceneRead = { ok: true; elements: WhiteboardElement[] } | { ok: false; problem: string };

/** Properties an editor rewrites on every change: kept only where the service already has them. */
const BOOKKEEPING = new Set(['version', 'versionNonce', 'updated', 'index']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads a scene; `base` (the elements last agreed on, by id) tells a filled-in default from a value the service has. */
export function readScene(text: string, base: ReadonlyMap<string, WhiteboardElement>): SceneRead {
  let scene: unknown;
  try {
    scene = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `it is not valid JSON (${(e as Error).message})` };
  }
  if (!isObject(scene) || scene.type !== 'excalidraw' || !Array.isArray(scene.elements))
    return { ok: false, problem: 'it is not an Excalidraw scene (an object with "type": "excalidraw" and an "elements" list)' };
  const raw = scene.elements as unknown[];
  const live: Array<Record<string, unknown> & { id: string }> = [];
  for (let i = 0; i < raw.length; i++) {
    const el = raw[i];
    if (!isObject(el) || typeof el.id !== 'string' || el.id === '' || typeof el.type !== 'string')
      return { ok: false, problem: `element ${i + 1} has no "id" or "type"` };
    if (el.isDeleted === true) continue;
    live.push(el as Record<string, unknown> & { id: string });
  }
  const labels = new Map<string, string>();
  for (const el of live)
    if (el.type === 'text' && typeof el.containerId === 'string' && el.id === labelIdOf(el.containerId)) labels.set(el.containerId, String(el.text ?? ''));
  const seen = new Set<string>();
  const elements: WhiteboardElement[] = [];
  for (const el of live) {
    if (typeof el.containerId === 'string' && labels.has(el.containerId) && el.id === labelIdOf(el.containerId)) continue;
    if (seen.has(el.id)) return { ok: false, problem: `the element id "${el.id}" appears twice` };
    seen.add(el.id);
    elements.push(serviceElementOf(el, base.get(el.id), labels.get(el.id)));
  }
  return { ok: true, elements };
}

function serviceElementOf(el: Record<string, unknown> & { id: string }, b: WhiteboardElement | undefined, label: string | undefined): WhiteboardElement {
  const sceneType = el.type as string;
  const defaults = excalidrawDefaults(sceneType, el);
  const cd = isObject(el.customData) ? el.customData : undefined;
  const kept = cd && isObject(cd[KEPT_KEY]) ? (cd[KEPT_KEY] as Record<string, unknown>) : {};
  const had = (k: string) => b !== undefined && Object.hasOwn(b, k);
  const out: WhiteboardElement = { id: el.id };
  for (const [k, v0] of Object.entries(el)) {
    if (k === 'id' || k === 'customData') continue;
    let v = v0;
    if (k === 'type') v = typeof kept.type === 'string' ? kept.type : sceneType;
    if (k === 'boundElements' && Array.isArray(v)) {
      const own = (v as unknown[]).filter((r) => !(isObject(r) && r.id === labelIdOf(el.id)));
      if (own.length === 0) {
        // Nothing bound but the label the scene added (or an editor's empty list): the service's own
        // empty value stands, or none.
        const bv = had(k) ? b![k] : undefined;
        if (!had(k)) continue;
        if ((v as unknown[]).length > 0 && (bv === null || (Array.isArray(bv) && bv.length === 0))) {
          out[k] = bv;
          continue;
        }
      }
      v = own;
    }
    if (!had(k)) {
      if (BOOKKEEPING.has(k)) continue;
      if (k !== 'type' && Object.hasOwn(defaults, k) && sameValue(v, defaults[k])) continue;
    }
    out[k] = v;
  }
  for (const [k, v] of Object.entries(kept)) if (k !== 'type') out[k] = v;
  if (takesLabel(sceneType)) {
    if (label !== undefined) out.text = label;
    else if (!Object.hasOwn(kept, 'text') && typeof b?.text === 'string' && b.text !== '') out.text = ''; // its label was removed
  }
  if (cd && !Object.hasOwn(kept, 'customData')) {
    const rest = Object.fromEntries(Object.entries(cd).filter(([k]) => k !== KEPT_KEY));
    if (Object.keys(rest).length > 0 || had('customData')) out.customData = rest;
  }
  return out;
}
