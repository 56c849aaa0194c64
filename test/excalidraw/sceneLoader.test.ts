// The scenes a pull writes, loaded by Excalidraw's own scene loader (`restore` of the editor's
// package, run under Node with the few browser globals it touches at load time): every element
// survives the load, and a scene as the editor then holds it reads back as the service's whiteboard
// unchanged (the loader's own bookkeeping, a new version, nonce and order index, is not an edit).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readScene } from '../../src/core/whiteboards/readScene.js';
import { sceneOfWhiteboard, type WhiteboardContent } from '../../src/core/whiteboards/sceneOfWhiteboard.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/whiteboard');
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

type Scene = { elements: Array<Record<string, unknown>>; appState: Record<string, unknown>; files: Record<string, unknown> };
type Restore = (
  data: Scene,
  local: null,
  localElements: null,
) => { elements: Array<Record<string, unknown>>; appState: Record<string, unknown>; files: unknown };

/** What the editor's modules read from the browser while they load; nothing here draws. */
function browserGlobals(): void {
  const g = globalThis as Record<string, unknown>;
  const context = {
    filter: 'none',
    font: '',
    measureText: (t: string) => ({ width: String(t).length * 10 }),
    fillText() {},
    save() {},
    restore() {},
    scale() {},
  };
  g.navigator ??= { userAgent: 'node', platform: 'Linux', language: 'en' };
  g.window ??= globalThis;
  g.devicePixelRatio ??= 1;
  g.document ??= {
    // setAttribute: react-dom probes which events an element supports as it loads.
    createElement: () => ({ getContext: () => context, style: {}, setAttribute() {} }),
    documentElement: { style: {} },
    fonts: { add() {}, check: () => true, load: () => Promise.resolve([]), addEventListener() {} },
    addEventListener() {},
    querySelector: () => null,
  };
  g.FontFace ??= class {
    status = 'loaded';
    load() {
      return Promise.resolve(this);
    }
  };
  g.matchMedia ??= () => ({ matches: false, addListener() {}, addEventListener() {} });
  g.location ??= { href: 'http://localhost/', origin: 'http://localhost', hostname: 'localhost' };
  g.localStorage ??= { getItem: () => null, setItem() {} };
  g.addEventListener ??= () => {};
  g.Element ??= class {};
  g.HTMLElement ??= class {};
  g.Image ??= class {};
}

let restore: Restore;
beforeAll(async () => {
  browserGlobals();
  const name = '@excalidraw/excalidraw';
  restore = ((await import(name)) as { restore: Restore }).restore;
}, 120_000);

describe("Excalidraw's scene loader", () => {
  for (const c of cases) {
    it(`loads ${c} whole, and the loaded scene reads back unchanged`, () => {
      const wb = JSON.parse(readFileSync(path.join(dir, `${c}.json`), 'utf8')) as WhiteboardContent;
      const scene = JSON.parse(sceneOfWhiteboard(wb)) as Scene;
      const loaded = restore(scene, null, null);
      expect(loaded.elements.map((e) => e.id)).toEqual(scene.elements.map((e) => e.id));
      expect(loaded.elements.map((e) => e.type)).toEqual(scene.elements.map((e) => e.type));
      expect(loaded.appState.viewBackgroundColor).toBe(wb.appState?.viewBackgroundColor ?? '#ffffff');
      const saved = JSON.stringify({
        type: 'excalidraw',
        version: 2,
        source: 'https://excalidraw.com',
        elements: loaded.elements,
        appState: {},
        files: loaded.files,
      });
      expect(readScene(saved, new Map(wb.elements.map((e) => [e.id, e])))).toEqual({ ok: true, elements: wb.elements });
    });
  }
});
