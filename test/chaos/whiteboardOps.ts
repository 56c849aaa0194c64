// The chaos run's whiteboard: a board in the first document, moved, resized, added to and removed
// from on both sides at once (in its scene file as an editor saves it, and through the element
// endpoints), and the check that, once quiet, every scene file holds exactly its board's elements.
import fs from 'node:fs';
import path from 'node:path';
import { linkAssets, sceneFileOf } from '../../src/core/media/linkAssets.js';
import { sceneOfWhiteboard, type WhiteboardElement } from '../../src/core/whiteboards/sceneOfWhiteboard.js';
import { sameElement } from '../../src/core/whiteboards/mergeWhiteboard.js';
import { readScene } from '../../src/core/whiteboards/readScene.js';
import { isConflictCopy } from '../../src/mirror/index.js';
import { segmentFile, type Block, type Segment } from '../../src/dialect/index.js';
import type { SpaceFixture } from '../../src/server/index.js';
import { editorSave, type EditorStyle } from '../scenarios/harness.js';
import type { World } from '../scenarios/world.js';
import type { ChaosOp } from './chaos.js';

/** The board every run starts with: a labelled box, an ellipse and an arrow between them. */
export function chaosBoard(seed: number): WhiteboardElement[] {
  return [
    { id: `w${seed}-box`, type: 'rectangle', x: 40, y: 40, width: 160, height: 80, text: 'Files', strokeColor: '#1e1e1e' },
    { id: `w${seed}-oval`, type: 'ellipse', x: 320, y: 40, width: 160, height: 80, text: '' },
    {
      id: `w${seed}-arrow`,
      type: 'arrow',
      x: 200,
      y: 80,
      width: 120,
      height: 0,
      text: '',
      points: [
        [0, 0],
        [120, 0],
      ],
    },
  ];
}

const at = <T>(list: readonly T[], r: number): T => list[Math.min(list.length - 1, Math.floor(r * list.length))]!;

function sceneFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && !e.name.startsWith('.') && p !== 'Trash') out.push(...sceneFiles(root, p));
    else if (e.isFile() && e.name.endsWith('.excalidraw')) out.push(p);
  }
  return out.sort();
}

type SceneElement = Record<string, unknown> & { id: string };

/**
 * A board drawn from a scene file (a board copied in, a backup restored): a new scene in a document's
 * `.assets` folder and a line linking it, saved as the op's editor saves. The space must get a
 * whiteboard holding its elements (checkWhiteboards: every scene a file links is a board of its document).
 */
export function localDrawBoard(w: World, op: ChaosOp, files: readonly string[], save: (rel: string, before: string, after: string) => void): string {
  const [r0, r1] = op.r;
  if (files.length === 0) return 'skipped: no file';
  const rel = at(files, r0);
  const stem = path.posix.basename(rel).replace(/\.md$/, '');
  const dir = path.posix.dirname(rel);
  const name = `${stem}.assets/board-${op.n}.excalidraw`;
  const file = dir === '.' ? name : `${dir}/${name}`;
  const elements: WhiteboardElement[] = [
    { id: `d${op.n}-box`, type: 'rectangle', x: 20 * op.n, y: 40, width: 140, height: 70, text: op.text },
    { id: `d${op.n}-dot`, type: 'ellipse', x: 20 * op.n + 200, y: 40, width: 30, height: 30, text: '' },
  ];
  fs.mkdirSync(path.dirname(w.file(file)), { recursive: true });
  fs.writeFileSync(w.file(file), sceneOfWhiteboard({ elements }));
  const before = w.read(rel);
  const lines = before.split('\n');
  const bodyStart = before.startsWith('---\n') ? lines.indexOf('---', 1) + 1 : 0;
  const i = bodyStart + Math.floor(r1 * (lines.length - bodyStart));
  const link = `![Board ${op.n}](<${name}>)`;
  save(rel, before, [...lines.slice(0, i), '', link, '', ...lines.slice(i)].join('\n'));
  return `${rel}: ${link}`;
}

/** An editor's change of the scene file: move, resize, add or remove an element, with Excalidraw's own bookkeeping. */
export function localWhiteboardEdit(w: World, op: ChaosOp, editor: EditorStyle): string {
  const [r0, r1, r2] = op.r;
  const files = sceneFiles(w.root);
  if (files.length === 0) return 'skipped: no scene file';
  const rel = at(files, r0);
  const scene = JSON.parse(w.read(rel)) as { elements: SceneElement[] };
  const shapes = scene.elements.filter((e) => !e.isDeleted && !e.id.endsWith(':label'));
  const touch = (e: SceneElement) => Object.assign(e, { version: Number(e.version ?? 1) + 1, versionNonce: Math.floor(r2 * 1e9), updated: Date.now() });
  let what: string;
  if (r1 < 0.35 && shapes.length > 0) {
    const e = at(shapes, r2);
    touch(e);
    e.x = Number(e.x ?? 0) + 10 + Math.floor(r2 * 50);
    e.y = Number(e.y ?? 0) + 5;
    what = `moved ${e.id}`;
  } else if (r1 < 0.55 && shapes.length > 0) {
    const e = at(shapes, r2);
    touch(e);
    e.width = Number(e.width ?? 0) + 20;
    what = `resized ${e.id}`;
  } else if (r1 < 0.8 || shapes.length < 2) {
    const id = `lw${op.n}-${Math.floor(r2 * 1e6)}`;
    scene.elements.push({
      id,
      type: 'rectangle',
      x: 100 + op.n * 7,
      y: 200,
      width: 40,
      height: 30,
      angle: 0,
      strokeColor: '#e03131',
      backgroundColor: 'transparent',
      fillStyle: 'solid',
      strokeWidth: 2,
      strokeStyle: 'solid',
      roughness: 1,
      opacity: 100,
      roundness: null,
      seed: Math.floor(r2 * 1e9),
      version: 1,
      versionNonce: 1,
      index: 'a9',
      isDeleted: false,
      groupIds: [],
      frameId: null,
      boundElements: null,
      updated: Date.now(),
      link: null,
      locked: false,
    });
    what = `added ${id}`;
  } else {
    const e = at(shapes, r2);
    // Excalidraw marks a removed element (and its label) deleted; a hand edit drops it.
    if (r2 < 0.5) for (const x of scene.elements) if (x.id === e.id || x.containerId === e.id) touch(x).isDeleted = true;
    if (r2 >= 0.5) scene.elements = scene.elements.filter((x) => x.id !== e.id && x.containerId !== e.id);
    what = `removed ${e.id}`;
  }
  editorSave(w, rel, `${JSON.stringify(scene, null, 2)}\n`, editor);
  return `${rel}: ${what} (${editor})`;
}

type Answer = (method: string, p: string, body: unknown) => Promise<string>;

/** Another client's change of a board: move, resize, add or remove an element. */
export async function remoteWhiteboardEdit(snap: SpaceFixture, op: ChaosOp, answer: Answer): Promise<string> {
  const [r0, r1, r2] = op.r;
  const boards = (snap.documents ?? [])
    .filter((d) => d.location !== 'trash')
    .flatMap((d) => (d.content ?? []).filter((b) => b.type === 'whiteboard' && b.whiteboard))
    .map((b) => ({ id: b.id!, elements: b.whiteboard!.elements as WhiteboardElement[] }));
  if (boards.length === 0) return 'skipped: no whiteboard';
  const board = at(boards, r0);
  const p = `/whiteboards/${board.id}/elements`;
  if (r1 < 0.35 && board.elements.length > 0) {
    const e = at(board.elements, r2);
    return answer('PUT', p, { elements: [{ id: e.id, x: Number(e.x ?? 0) - 15, y: Number(e.y ?? 0) + 10 + op.n }] });
  }
  if (r1 < 0.55 && board.elements.length > 0) {
    const e = at(board.elements, r2);
    return answer('PUT', p, { elements: [{ id: e.id, height: Number(e.height ?? 0) + 12 }] });
  }
  if (r1 < 0.8 || board.elements.length < 2) {
    return answer('POST', p, {
      elements: [{ id: `rw${op.n}`, type: 'ellipse', x: 500, y: 100 + op.n * 9, width: 30, height: 30, text: '', tag: `app ${op.n}` }],
    });
  }
  return answer('DELETE', p, { elementIds: [at(board.elements, r2).id] });
}

/** The whiteboards the run started with. */
export function whiteboardIds(w: World): string[] {
  return (w.initial?.documents ?? []).flatMap((d) => (d.content ?? []).filter((b) => b.type === 'whiteboard').map((b) => b.id!));
}

/** Once quiet: the scene file of every whiteboard holds the elements the space holds, no more, no fewer, each the same. */
export async function checkWhiteboards(w: World): Promise<string[]> {
  const failures: string[] = [];
  const snap = await w.snapshot();
  // A conflict copy holds the document's front matter too, but is no document: its links are the document's.
  const files = w.mdFiles().filter((p) => !isConflictCopy(p));
  for (const d of snap.documents ?? []) {
    const boards = (d.content ?? []).filter((b) => b.type === 'whiteboard');
    if (d.location === 'trash') continue;
    const doc = files.find((p) => (w.readOrNull(p) ?? '').includes(`\nid: ${d.id}\n`) || (w.readOrNull(p) ?? '').startsWith(`---\nid: ${d.id}\n`));
    if (!doc) continue; // no file (purged): nothing to compare
    const tree: Block = {
      id: d.id!,
      type: 'page',
      markdown: d.title,
      content: boards.map((b) => ({ id: b.id!, type: 'whiteboard', markdown: '![Whiteboard](u)' })),
    };
    const named = (linkAssets(tree, doc).content ?? []).map((b) => sceneFileOf(b.markdown!, doc));
    // Every scene a block of the file links (a link alone in its block) is one of its document's boards,
    // a scene drawn from the file included; a link inside a paragraph is text.
    const flat = (list: readonly Segment[]): Segment[] => list.flatMap((x) => [x, ...flat(x.children)]);
    const linked = flat(segmentFile(w.readOrNull(doc) ?? '').segments).flatMap((x) => {
      const f = x.kind === 'block' && /^!\[[^\]\n]*\]\([^\n]*\)$/.test(x.markdown.trim()) ? sceneFileOf(x.markdown.trim(), doc) : null;
      return f ? [f] : [];
    });
    for (const f of linked) if (!named.includes(f)) failures.push(`${doc} links the scene ${f}, which is no whiteboard of its document in the space`);
    for (const b of linkAssets(tree, doc).content ?? []) {
      const file = sceneFileOf(b.markdown!, doc);
      const remote = (boards.find((x) => x.id === b.id)?.whiteboard?.elements ?? []) as WhiteboardElement[];
      const text = file ? w.readOrNull(file) : null;
      if (!file || text === null) {
        failures.push(`whiteboard ${b.id} of ${doc}: no scene file ${file ?? '(no link)'}`);
        continue;
      }
      const read = readScene(text, new Map(remote.map((e) => [e.id, e])));
      if (!read.ok) {
        failures.push(`whiteboard ${b.id}: ${file} cannot be read: ${read.problem}`);
        continue;
      }
      const local = new Map(read.elements.map((e) => [e.id, e]));
      const ids = (list: Iterable<string>) => [...list].sort().join(', ');
      if (ids(local.keys()) !== ids(remote.map((e) => e.id))) {
        failures.push(`whiteboard ${b.id}: ${file} holds elements [${ids(local.keys())}], the space [${ids(remote.map((e) => e.id))}]`);
        continue;
      }
      for (const r of remote)
        if (!sameElement(local.get(r.id)!, r))
          failures.push(`whiteboard ${b.id}: element ${r.id} is ${JSON.stringify(local.get(r.id))} in ${file}, ${JSON.stringify(r)} in the space`);
    }
  }
  return failures.map((f) => `whiteboards: ${f}`);
}
