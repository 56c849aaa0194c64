// Golden scenes: fixtures/whiteboard/<case>.json (a whiteboard as the service reads it) ⇄
// <case>.excalidraw (the scene file a pull writes). UPDATE=1 rewrites the scene files.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sceneOfWhiteboard, type WhiteboardContent } from './sceneOfWhiteboard.js';
import { readScene } from './readScene.js';
import { seedOf } from './excalidrawDefaults.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/whiteboard');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

const REQUIRED = [
  'id',
  'type',
  'x',
  'y',
  'width',
  'height',
  'angle',
  'strokeColor',
  'backgroundColor',
  'fillStyle',
  'strokeWidth',
  'strokeStyle',
  'roughness',
  'opacity',
  'seed',
  'version',
  'versionNonce',
  'isDeleted',
  'groupIds',
  'boundElements',
  'updated',
  'link',
  'locked',
];

describe('sceneOfWhiteboard (golden scenes)', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThanOrEqual(3));
  for (const c of cases) {
    it(c, () => {
      const wb = JSON.parse(readFileSync(path.join(dir, `${c}.json`), 'utf8')) as WhiteboardContent;
      const text = sceneOfWhiteboard(wb);
      const golden = path.join(dir, `${c}.excalidraw`);
      if (process.env.UPDATE === '1' || !existsSync(golden)) writeFileSync(golden, text);
      expect(text).toBe(readFileSync(golden, 'utf8'));
      // The same whiteboard gives the same bytes.
      expect(sceneOfWhiteboard(JSON.parse(JSON.stringify(wb)) as WhiteboardContent)).toBe(text);
      const scene = JSON.parse(text) as {
        type: string;
        version: number;
        source: string;
        elements: Array<Record<string, unknown>>;
        appState: unknown;
        files: unknown;
      };
      expect(scene).toMatchObject({ type: 'excalidraw', version: 2, source: 'spacesync' });
      expect(scene.appState).toEqual(wb.appState ?? {});
      expect(scene.files).toEqual(wb.assets ?? {});
      for (const el of scene.elements) for (const k of REQUIRED) expect(el, `${String(el.id)}.${k}`).toHaveProperty(k);
      // Read back against its own elements as base, the scene is exactly the service's whiteboard.
      const read = readScene(text, new Map(wb.elements.map((e) => [e.id, e])));
      expect(read).toEqual({ ok: true, elements: wb.elements });
      // Without a base the defaults are dropped, and what is left renders the same bytes.
      const fresh = readScene(text, new Map());
      expect(fresh.ok && sceneOfWhiteboard({ ...wb, elements: fresh.elements })).toBe(text);
    });
  }
});

describe('scene defaults', () => {
  it('derives seed and nonce from the id, never at random', () => {
    expect(seedOf('el-1')).toBe(seedOf('el-1'));
    expect(seedOf('el-1')).not.toBe(seedOf('el-2'));
    expect(seedOf('el-1')).toBeLessThan(2 ** 31);
  });
  it('shows a type Excalidraw does not draw as a rectangle and keeps its name and unknown properties aside', () => {
    const scene = JSON.parse(sceneOfWhiteboard({ elements: [{ id: 's', type: 'sticky', votes: 2, x: 1 }] })) as { elements: Array<Record<string, unknown>> };
    expect(scene.elements[0]).toMatchObject({ id: 's', type: 'rectangle', x: 1, customData: { spacesync: { type: 'sticky', votes: 2 } } });
  });
  it("shows a shape's text as a bound label", () => {
    const scene = JSON.parse(sceneOfWhiteboard({ elements: [{ id: 'r', type: 'rectangle', x: 0, y: 0, width: 100, height: 40, text: 'Hi' }] })) as {
      elements: Array<Record<string, unknown>>;
    };
    expect(scene.elements).toHaveLength(2);
    expect(scene.elements[0]!.boundElements).toEqual([{ type: 'text', id: 'r:label' }]);
    expect(scene.elements[1]).toMatchObject({ id: 'r:label', type: 'text', text: 'Hi', containerId: 'r' });
  });
});
