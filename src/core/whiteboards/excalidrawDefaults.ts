// What Excalidraw knows of an element, per type, and the values it needs where the service has none.
// The values are fixed, or derived from the element's id (seed, nonce): the same whiteboard gives the
// same scene bytes on every pull and every machine.
import { createHash } from 'node:crypto';

/** Element types Excalidraw draws; any other type is shown as a rectangle and keeps its own name aside. */
export const EXCALIDRAW_TYPES: ReadonlySet<string> = new Set([
  'rectangle',
  'diamond',
  'ellipse',
  'text',
  'arrow',
  'line',
  'freedraw',
  'image',
  'frame',
  'magicframe',
  'embeddable',
  'iframe',
]);

const LINEAR = new Set(['arrow', 'line']);

/** A 31-bit integer from the element id: Excalidraw's `seed` (the hand-drawn wobble) without randomness. */
export function seedOf(id: string, salt = ''): number {
  return createHash('sha256').update(`${salt}\u0000${id}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The properties every element has, with the value Excalidraw needs when the service gives none. */
export function commonDefaults(id: string): Record<string, unknown> {
  return {
    angle: 0,
    strokeColor: '#1e1e1e',
    backgroundColor: 'transparent',
    fillStyle: 'solid',
    strokeWidth: 2,
    strokeStyle: 'solid',
    roughness: 1,
    opacity: 100,
    roundness: null,
    seed: seedOf(id),
    version: 1,
    versionNonce: seedOf(id, 'nonce'),
    index: null,
    isDeleted: false,
    groupIds: [],
    frameId: null,
    boundElements: null,
    updated: 1,
    link: null,
    locked: false,
  };
}

function typeDefaults(type: string, el: Record<string, unknown>): Record<string, unknown> {
  const w = typeof el.width === 'number' ? el.width : 0;
  const h = typeof el.height === 'number' ? el.height : 0;
  if (type === 'text')
    return {
      text: '',
      fontSize: 20,
      fontFamily: 1,
      textAlign: 'left',
      verticalAlign: 'top',
      containerId: null,
      originalText: typeof el.text === 'string' ? el.text : '',
      autoResize: true,
      lineHeight: 1.25,
    };
  if (LINEAR.has(type))
    return {
      points: [
        [0, 0],
        [w, h],
      ],
      lastCommittedPoint: null,
      startBinding: null,
      endBinding: null,
      startArrowhead: null,
      endArrowhead: type === 'arrow' ? 'arrow' : null,
      elbowed: false,
    };
  if (type === 'freedraw') return { points: [[0, 0]], pressures: [], simulatePressure: true, lastCommittedPoint: null };
  if (type === 'image') return { fileId: null, status: 'saved', scale: [1, 1], crop: null };
  if (type === 'frame' || type === 'magicframe') return { name: null };
  return {};
}

/** Every property Excalidraw keeps on an element of `type` (its own fields), with the default value of each. */
export function excalidrawDefaults(type: string, el: WhiteboardLike): Record<string, unknown> {
  return { id: el.id, type, x: 0, y: 0, width: 0, height: 0, ...commonDefaults(el.id), ...typeDefaults(type, el), customData: undefined };
}

export type WhiteboardLike = Record<string, unknown> & { id: string };

/** Whether Excalidraw shows a bound label for this type (the service's `text` of a shape or arrow). */
export const takesLabel = (type: string): boolean => type !== 'text' && type !== 'freedraw' && type !== 'image' && type !== 'frame' && type !== 'magicframe';
