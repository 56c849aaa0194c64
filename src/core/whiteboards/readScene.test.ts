import { describe, expect, it } from 'vitest';
import { readScene } from './readScene.js';
import { sceneOfWhiteboard, type WhiteboardElement } from './sceneOfWhiteboard.js';

const base: WhiteboardElement[] = [
  { id: 'a', type: 'rectangle', x: 10, y: 20, width: 100, height: 50, text: 'Box', strokeColor: '#1e1e1e' },
  { id: 'n', type: 'sticky', x: 0, y: 0, width: 10, height: 10, text: '', votes: 1 },
];
const byId = new Map(base.map((e) => [e.id, e]));
type Scene = { elements: Array<Record<string, unknown>> };
const sceneOf = (els = base) => JSON.parse(sceneOfWhiteboard({ elements: els })) as Scene;
const read = (scene: Scene) => readScene(JSON.stringify(scene), byId);

describe('readScene', () => {
  it('reads an Excalidraw move back as a change of x and y only: its bookkeeping (version, nonce, time, index) is not the service’s', () => {
    const s = sceneOf();
    Object.assign(s.elements[0]!, { x: 30, y: 45, version: 7, versionNonce: 99, updated: 1760000000000, index: 'a0' });
    const r = read(s);
    expect(r.ok && r.elements[0]).toEqual({ ...base[0], x: 30, y: 45 });
  });

  it('takes a label’s new text as the shape’s text; a removed label empties it', () => {
    const s = sceneOf();
    s.elements[1]!.text = 'Crate';
    expect(read(s)).toMatchObject({ ok: true, elements: [{ id: 'a', text: 'Crate' }, { id: 'n' }] });
    const noLabel = sceneOf();
    noLabel.elements.splice(1, 1);
    noLabel.elements[0]!.boundElements = [];
    const r = read(noLabel);
    expect(r.ok && r.elements[0]!.text).toBe('');
    expect(r.ok && r.elements[0]).not.toHaveProperty('boundElements');
  });

  it('keeps the type and properties Excalidraw does not know, from customData', () => {
    const s = sceneOf();
    expect(s.elements[2]).toMatchObject({ type: 'rectangle', customData: { spacesync: { type: 'sticky', votes: 1, text: '' } } });
    s.elements[2]!.x = 5;
    const r = read(s);
    expect(r.ok && r.elements[1]).toEqual({ ...base[1], x: 5 });
  });

  it('skips deleted elements (the element was removed)', () => {
    const s = sceneOf();
    s.elements[2]!.isDeleted = true;
    const r = read(s);
    expect(r.ok && r.elements.map((e) => e.id)).toEqual(['a']);
  });

  it('reads a new element without the defaults Excalidraw wrote', () => {
    const s = sceneOf();
    s.elements.push({ ...sceneOf([{ id: 'z', type: 'ellipse', x: 3, y: 4, width: 5, height: 6 }]).elements[0]!, seed: 1234, version: 3 });
    const r = read(s);
    expect(r.ok && r.elements[2]).toEqual({ id: 'z', type: 'ellipse', x: 3, y: 4, width: 5, height: 6, seed: 1234 });
  });

  it('names what is wrong with a file that is not a scene', () => {
    expect(readScene('{"type": "excalidraw", "elements": [', byId)).toEqual({ ok: false, problem: expect.stringMatching(/^it is not valid JSON/) });
    expect(readScene('{"elements": []}', byId)).toEqual({ ok: false, problem: expect.stringMatching(/not an Excalidraw scene/) });
    expect(readScene('{"type": "excalidraw", "elements": [{"type": "rectangle"}]}', byId)).toEqual({ ok: false, problem: 'element 1 has no "id" or "type"' });
    expect(readScene('{"type": "excalidraw", "elements": [{"id": "a", "type": "rectangle"}, {"id": "a", "type": "ellipse"}]}', byId)).toMatchObject({
      ok: false,
    });
  });
});
