// A whiteboard → the text of an `.excalidraw` file (an Excalidraw scene, version 2). Each element
// gets every property Excalidraw needs (the service's value, else a fixed or id-derived default);
// properties Excalidraw would drop (and a type it does not draw) go into `customData.spacesync`, and a
// shape's `text` becomes a bound label, so that reading the scene back gives the service's element.
import { commonDefaults, EXCALIDRAW_TYPES, excalidrawDefaults, takesLabel } from './excalidrawDefaults.js';

// A whiteboard as the service holds it: its elements in order (each with an id and whatever
// properties it carries), its app state and assets. The scene file is built from this and read back to it.

/** One drawing element as the service stores it: `id`, `type`, geometry, `text`, `points` and any other property. */
export type WhiteboardElement = Record<string, unknown> & { id: string };

export interface WhiteboardContent {
  elements: WhiteboardElement[];
  appState?: Record<string, unknown>;
  assets?: Record<string, unknown>;
}

/** Where a scene keeps what Excalidraw does not know: `customData.spacesync`. */
export const KEPT_KEY = 'spacesync';

/** The id of the label element a shape's text is shown in. */
export const labelIdOf = (id: string): string => `${id}:label`;

export const SCENE_SOURCE = 'spacesync';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function labelOf(container: Record<string, unknown>, text: string): Record<string, unknown> {
  const id = labelIdOf(container.id as string);
  const num = (k: string) => (typeof container[k] === 'number' ? (container[k] as number) : 0);
  return {
    id,
    type: 'text',
    x: num('x'),
    y: num('y') + num('height') / 2 - 12.5,
    width: num('width'),
    height: 25,
    ...commonDefaults(id),
    strokeColor: container.strokeColor ?? '#1e1e1e',
    text,
    fontSize: 20,
    fontFamily: 1,
    textAlign: 'center',
    verticalAlign: 'middle',
    containerId: container.id,
    originalText: text,
    autoResize: true,
    lineHeight: 1.25,
  };
}

/** One service element as Excalidraw elements: itself, and its label when it has text to show. */
export function sceneElementsOf(el: WhiteboardElement): Record<string, unknown>[] {
  const type = typeof el.type === 'string' && EXCALIDRAW_TYPES.has(el.type) ? el.type : 'rectangle';
  const defaults = excalidrawDefaults(type, el);
  const out: Record<string, unknown> = {};
  for (const [k, d] of Object.entries(defaults)) {
    if (k === 'customData') continue;
    out[k] = k === 'type' ? type : Object.hasOwn(el, k) ? el[k] : d;
  }
  const kept: Record<string, unknown> = {};
  if (el.type !== type) kept.type = el.type;
  let label: string | undefined;
  for (const [k, v] of Object.entries(el)) {
    if (Object.hasOwn(defaults, k)) continue;
    if (k === 'text' && takesLabel(type) && typeof v === 'string' && v !== '') label = v;
    else kept[k] = v;
  }
  let customData: Record<string, unknown> | undefined;
  if (isObject(el.customData)) customData = { ...el.customData };
  else if (el.customData !== undefined) kept.customData = el.customData;
  if (Object.keys(kept).length > 0) customData = { ...customData, [KEPT_KEY]: kept };
  if (customData) out.customData = customData;
  if (label === undefined) return [out];
  out.boundElements = [...(Array.isArray(out.boundElements) ? (out.boundElements as unknown[]) : []), { type: 'text', id: labelIdOf(el.id) }];
  return [out, labelOf(out, label)];
}

/** The scene file's text: two-space JSON and a final newline, identical for identical whiteboards. */
export function sceneOfWhiteboard(wb: WhiteboardContent): string {
  const scene = {
    type: 'excalidraw',
    version: 2,
    source: SCENE_SOURCE,
    elements: wb.elements.flatMap(sceneElementsOf),
    appState: { ...(wb.appState ?? {}) },
    files: { ...(wb.assets ?? {}) },
  };
  return `${JSON.stringify(scene, null, 2)}\n`;
}
