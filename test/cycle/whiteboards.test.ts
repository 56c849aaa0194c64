// Whiteboards as `.excalidraw` scene files beside their document, against the real server: the
// first cycle writes the scene and links it from the body; an edit of the scene is sent as element
// requests (only the changed properties), the space's edits come into the file, an element changed
// on both sides goes to the later edit (the other version to the history), a scene that is not JSON
// is held back, and removing the link removes the whiteboard and its scene file.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { syncWhiteboards, WHITEBOARD_BASE, type WhiteboardRecord } from '../../src/sync/whiteboards/index.js';
import { sceneOfWhiteboard } from '../../src/core/whiteboards/sceneOfWhiteboard.js';
import { closeWorld, openWorld, writesOf, type World } from '../push/pushHarness.js';

const elements = [
  { id: 'e1', type: 'rectangle', x: 10, y: 20, width: 100, height: 50, text: 'Box', strokeColor: '#1e1e1e' },
  {
    id: 'e2',
    type: 'arrow',
    x: 110,
    y: 45,
    width: 80,
    height: 0,
    text: '',
    points: [
      [0, 0],
      [80, 0],
    ],
    votes: 2,
  },
];

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-WB', name: 'Boards', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'R1', markdown: 'The plan:' },
        { id: 'W-1', type: 'whiteboard', whiteboard: { elements, appState: { viewBackgroundColor: '#ffffff' } } },
        { id: 'R2', markdown: 'closing words' },
      ],
    },
  ],
};

const DOC = 'Unsorted/Roadmap.md';
const SCENE = 'Unsorted/Roadmap.assets/whiteboard-W1.excalidraw';
const LINK = '![Whiteboard](Roadmap.assets/whiteboard-W1.excalidraw)';

type Scene = { elements: Array<Record<string, unknown>> };
let w: World;
const scene = () => JSON.parse(w.read(SCENE)) as Scene;
const writeScene = (s: Scene) => fs.writeFileSync(w.file(SCENE), JSON.stringify(s, null, 2));
const remoteElements = async () => (await w.space.call('GET', '/whiteboards/W-1/elements')).elements as Array<Record<string, unknown>>;
const cycle = async () => {
  const r = await syncOnce(w.session.ctx);
  return r;
};
const whiteboardWrites = async () => (await w.space.requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/whiteboards'));

beforeEach(async () => {
  w = await openWorld(fixture);
  const first = await cycle();
  expect(first.exitCode).toBe(0);
  await w.space.clearRequests();
});
afterEach(() => closeWorld(w));

describe('whiteboards as .excalidraw files', () => {
  it('writes the scene beside the document and links it where the block stands; the next cycles send and write nothing', async () => {
    expect(w.read(DOC)).toContain(`The plan:\n\n${LINK}\n\nclosing words`);
    expect(w.read(SCENE)).toBe(sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    const before = fs.statSync(w.file(SCENE)).mtimeMs;
    for (let i = 0; i < 2; i++) {
      const r = await cycle();
      expect(r.exitCode).toBe(0);
    }
    expect(await writesOf(w.space)).toEqual([]);
    expect((await w.space.requests()).filter((r) => r.path.startsWith('/whiteboards'))).toEqual([]);
    expect(fs.statSync(w.file(SCENE)).mtimeMs).toBe(before);
  });

  it('sends a move made in the editor as one PUT of x and y only, and does not send it again', async () => {
    const s = scene();
    Object.assign(s.elements[0]!, { x: 30, y: 60, version: 5, versionNonce: 77, updated: 1760000000000 });
    writeScene(s);
    const r = await cycle();
    expect(r.whiteboards?.requests).toBe(1);
    expect((await whiteboardWrites()).map((q) => `${q.method} ${q.path}`)).toEqual(['PUT /whiteboards/W-1/elements']);
    // Only x and y went: the editor's version, nonce and time did not reach the element.
    expect((await remoteElements())[0]).toEqual({ ...elements[0], x: 30, y: 60 });
    await w.space.clearRequests();
    await cycle();
    await cycle();
    expect(await whiteboardWrites()).toEqual([]);
    // Pulled afresh, the scene is the canonical one of what the space now holds.
    fs.rmSync(w.file(SCENE));
    await cycle();
    expect(w.read(SCENE)).toBe(sceneOfWhiteboard({ elements: await remoteElements(), appState: { viewBackgroundColor: '#ffffff' } } as never));
  });

  it('posts a new element and deletes a removed one', async () => {
    const s = scene();
    const arrow = s.elements.findIndex((e) => e.id === 'e2');
    s.elements.splice(arrow, 1);
    s.elements.push({ ...s.elements[0]!, id: 'e3', type: 'ellipse', x: 400, boundElements: null, seed: 42 });
    writeScene(s);
    await cycle();
    expect((await whiteboardWrites()).map((q) => `${q.method} ${q.path}`)).toEqual(['DELETE /whiteboards/W-1/elements', 'POST /whiteboards/W-1/elements']);
    // The new element as the service keeps it: without the defaults the scene filled in.
    expect(await remoteElements()).toEqual([elements[0], { id: 'e3', type: 'ellipse', x: 400, y: 20, width: 100, height: 50, seed: 42 }]);
  });

  it("brings the space's edit into the file", async () => {
    await w.space.call('PUT', '/whiteboards/W-1/elements', { elements: [{ id: 'e1', text: 'Crate', width: 140 }] });
    await cycle();
    expect(w.read(SCENE)).toBe(
      sceneOfWhiteboard({ elements: [{ ...elements[0]!, text: 'Crate', width: 140 }, elements[1]!], appState: { viewBackgroundColor: '#ffffff' } }),
    );
  });

  it('gives an element changed on both sides to the later edit and keeps the other version in the history', async () => {
    const s = scene();
    s.elements[0]!.x = 999;
    writeScene(s);
    await w.space.call('PUT', '/whiteboards/W-1/elements', { elements: [{ id: 'e1', y: 500 }] });
    await w.space.clearRequests();
    // The file was saved before the space's edit: the space's wins.
    const early = new Date(Date.parse('2026-09-05T09:00:00Z'));
    fs.utimesSync(w.file(SCENE), early, early);
    const r = await cycle();
    expect(r.whiteboards?.conflicts).toEqual([{ file: SCENE, id: 'e1', lost: 'local' }]);
    expect(await whiteboardWrites()).toEqual([]);
    expect(scene().elements[0]).toMatchObject({ x: 10, y: 500 });
    const history = w.session.journal.listHistory({ path: SCENE });
    expect(history).toHaveLength(1);
    expect(history[0]!.cause).toBe('conflict');
    expect(fs.existsSync(w.file(history[0]!.versionFile!))).toBe(true);
  });

  it('lets the later file edit win over the space and keeps the space’s version in the history', async () => {
    await w.space.call('PUT', '/whiteboards/W-1/elements', { elements: [{ id: 'e1', y: 500 }] });
    const s = scene();
    s.elements[0]!.x = 999;
    writeScene(s); // saved now: later than the space's edit (the test server's clock is in 2026-09)
    const r = await cycle();
    expect(r.whiteboards?.conflicts).toEqual([{ file: SCENE, id: 'e1', lost: 'remote' }]);
    expect((await remoteElements())[0]).toEqual({ ...elements[0], x: 999, y: 20 });
    expect(w.session.journal.listHistory({ path: SCENE })).toHaveLength(1);
  });

  it('an element moved in the file that the space deleted meanwhile, its document held back: the board is read again and the element made anew, once (chaos seed 775821802)', async () => {
    // The emptied file is held back, so the document's listing time is not taken and the record
    // still holds e1: sent as a PUT, the move found nothing, cycle after cycle.
    fs.writeFileSync(w.file(DOC), '');
    await w.space.call('DELETE', '/whiteboards/W-1/elements', { elementIds: ['e1'] });
    const s = scene();
    s.elements[0]!.x = 999;
    writeScene(s);
    await w.space.clearRequests();
    const r = await cycle();
    expect(r.whiteboards?.failed).toEqual([]);
    expect((await whiteboardWrites()).map((q) => `${q.method} ${q.path}`)).toEqual(['PUT /whiteboards/W-1/elements', 'POST /whiteboards/W-1/elements']);
    expect(await remoteElements()).toEqual([elements[1], { ...elements[0], x: 999 }]);
    await w.space.clearRequests();
    expect((await cycle()).whiteboards?.failed).toEqual([]);
    expect(await whiteboardWrites()).toEqual([]);
  });

  it('holds back a scene that is not JSON: a message naming the file, nothing sent, the file kept', async () => {
    fs.writeFileSync(w.file(SCENE), '{"type": "excalidraw", "elements": [');
    await w.space.call('PUT', '/whiteboards/W-1/elements', { elements: [{ id: 'e1', y: 500 }] });
    await w.space.clearRequests();
    const r = await cycle();
    expect(r.exitCode).toBe(1);
    expect(r.whiteboards?.heldBack).toEqual([
      { file: SCENE, message: expect.stringMatching(/^The whiteboard file ".*whiteboard-W1.excalidraw" was not synced: it is not valid JSON/) },
    ]);
    expect(r.whiteboards?.heldBack[0]!.message).toMatch(/fix it/);
    expect(await whiteboardWrites()).toEqual([]);
    expect(w.read(SCENE)).toBe('{"type": "excalidraw", "elements": [');
    // Fixed: the space's edit comes in.
    fs.writeFileSync(w.file(SCENE), sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    expect((await cycle()).exitCode).toBe(0);
    expect(scene().elements[0]).toMatchObject({ y: 500 });
  });

  it('removes the whiteboard when its link leaves the file, and the scene file with it', async () => {
    fs.writeFileSync(w.file(DOC), w.read(DOC).replace(`${LINK}\n\n`, ''));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(await writesOf(w.space)).toEqual(['DELETE /blocks']);
    expect(r.whiteboards?.removed).toEqual([SCENE]);
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    await w.space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writesOf(w.space)).toEqual([]);
  });

  it('a scene recorded at a place it no longer is: moving it removes no folder of the space, however empty (chaos seed 1120073)', async () => {
    const made = await w.space.call('POST', '/folders', { folders: [{ name: 'Empty' }] });
    await cycle();
    expect(fs.existsSync(w.file('Empty'))).toBe(true);
    // The record says the scene was in the folder's directory (its note moved out, the scene not where it was).
    const key = `${WHITEBOARD_BASE}W-1`;
    const rec = w.session.journal.getState<WhiteboardRecord>(key)!;
    w.session.journal.setState(key, { ...rec, file: 'Empty/Roadmap.assets/whiteboard-W1.excalidraw' });
    await syncWhiteboards(w.session.ctx);
    expect(fs.existsSync(w.file('Empty'))).toBe(true);
    await w.space.clearRequests();
    expect((await cycle()).exitCode).toBe(0);
    expect(await writesOf(w.space)).toEqual([]);
    expect(((await w.space.call('GET', '/folders')).items as Array<{ id: string }>).map((f) => f.id)).toContain(made.items[0].id);
  });

  it('a scene edited here with no record of its board (lost with a journal): the edit is sent, not the defaults the file left out as nulls (chaos seed 1170039)', async () => {
    w.session.journal.deleteState(`${WHITEBOARD_BASE}W-1`);
    const edited = scene();
    edited.elements[0]!.x = 77;
    writeScene(edited);
    const r = await cycle();
    expect(r.whiteboards?.failed ?? []).toEqual([]);
    const sent = await whiteboardWrites();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.map((q) => q.status)).toEqual(sent.map(() => 200));
    expect((await remoteElements()).find((e) => e.id === 'e1')!.x).toBe(77);
    expect((await remoteElements()).find((e) => e.id === 'e2')).toMatchObject({
      height: 0,
      points: [
        [0, 0],
        [80, 0],
      ],
    });
  });

  it('never takes the assets folder for a folder of documents', async () => {
    const r = await cycle();
    expect(r.push.plan.heldBack).toEqual([]);
    expect(await writesOf(w.space)).toEqual([]);
    const folders = (await w.space.call('GET', '/folders')).items as Array<{ name: string }>;
    expect(folders.map((f) => f.name)).not.toContain('Roadmap.assets');
  });
});

describe('a whiteboard follows its document', () => {
  beforeEach(async () => {
    w = await openWorld(fixture);
    await cycle();
    await w.space.clearRequests();
  });
  afterEach(() => closeWorld(w));

  const settle = async () => {
    for (let i = 0; i < 3; i++) expect((await cycle()).exitCode).toBe(0);
  };

  it('renamed in the space: the link and the scene file move to the new .assets folder', async () => {
    await w.space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Plan' }] });
    await settle();
    expect(w.read('Unsorted/Plan.md')).toContain('![Whiteboard](Plan.assets/whiteboard-W1.excalidraw)');
    expect(w.read('Unsorted/Plan.assets/whiteboard-W1.excalidraw')).toBe(sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    expect((await w.space.requests()).filter((r) => r.method !== 'GET' && r.path.startsWith('/whiteboards'))).toEqual([]);
  });

  it('renamed in the space while its file is edited here: the link and the scene file still move to the new .assets folder', async () => {
    await w.space.call('PUT', '/blocks', { blocks: [{ id: 'D-ROAD', markdown: 'Plan' }] });
    fs.writeFileSync(w.file(DOC), `${w.read(DOC)}\nan edit made here\n`);
    await settle();
    expect(w.read('Unsorted/Plan.md')).toContain('![Whiteboard](Plan.assets/whiteboard-W1.excalidraw)');
    expect(w.read('Unsorted/Plan.md')).toContain('an edit made here');
    expect(w.read('Unsorted/Plan.assets/whiteboard-W1.excalidraw')).toBe(sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    expect(await whiteboardWrites()).toEqual([]);
  });

  it('renamed in the file system: the link and the scene file move with it, and nothing is sent for the board', async () => {
    fs.renameSync(w.file(DOC), w.file('Unsorted/Plan.md'));
    await settle();
    expect(w.read('Unsorted/Plan.md')).toContain('![Whiteboard](Plan.assets/whiteboard-W1.excalidraw)');
    expect(fs.existsSync(w.file('Unsorted/Plan.assets/whiteboard-W1.excalidraw'))).toBe(true);
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    expect(await whiteboardWrites()).toEqual([]);
  });

  it('moved here with its assets folder, before a push saw the move: the scene file is not written back at the old place (a folder rename would read as undone)', async () => {
    fs.mkdirSync(w.file('Archive'));
    fs.renameSync(w.file(DOC), w.file('Archive/Roadmap.md'));
    fs.renameSync(w.file('Unsorted/Roadmap.assets'), w.file('Archive/Roadmap.assets'));
    // The whiteboards' step of a poll cycle whose paths did not name the moved files.
    await syncWhiteboards(w.session.ctx);
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    await settle();
    expect(w.read('Archive/Roadmap.md')).toContain(LINK);
    expect(w.read('Archive/Roadmap.assets/whiteboard-W1.excalidraw')).toBe(sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    expect(await whiteboardWrites()).toEqual([]);
  });

  it('moved to another folder: the scene file moves with it', async () => {
    fs.mkdirSync(w.file('Archive'));
    fs.renameSync(w.file(DOC), w.file('Archive/Roadmap.md'));
    await settle();
    expect(w.read('Archive/Roadmap.md')).toContain(LINK);
    expect(w.read('Archive/Roadmap.assets/whiteboard-W1.excalidraw')).toBe(sceneOfWhiteboard({ elements, appState: { viewBackgroundColor: '#ffffff' } }));
    expect(fs.existsSync(w.file('Unsorted/Roadmap.assets'))).toBe(false);
    expect(await whiteboardWrites()).toEqual([]);
  });
});

describe('a whiteboard drawn from a scene file', () => {
  it('a new line linking a scene file draws the board in the space at its place, its elements kept; the next cycle sends nothing', async () => {
    // A scene copied in (a backup restored, a board from another document): a new file of the .assets folder and a line for it.
    const copy = 'Unsorted/Roadmap.assets/sketch.excalidraw';
    const copied = [
      { ...elements[0]!, id: 'n1', text: 'Copied box' },
      { ...elements[1]!, id: 'n2' },
    ];
    fs.writeFileSync(w.file(copy), sceneOfWhiteboard({ elements: copied }));
    fs.writeFileSync(w.file(DOC), w.read(DOC).replace('closing words', '![Sketch](Roadmap.assets/sketch.excalidraw)\n\nclosing words'));
    const r = await cycle();
    expect(r.exitCode).toBe(0);
    expect(r.media?.uploaded).toEqual([copy]);
    const doc = (await w.space.call('GET', '/blocks', undefined, { id: 'D-ROAD' })) as { content: Array<{ id: string; type: string }> };
    expect(doc.content.map((b) => b.type)).toEqual(['text', 'whiteboard', 'whiteboard', 'text']);
    const board = doc.content[2]!.id;
    const drawn = (await w.space.call('GET', `/whiteboards/${board}/elements`)).elements as Array<{ id: string; text?: string }>;
    expect(drawn.map((e) => [e.id, e.text])).toEqual([
      ['n1', 'Copied box'],
      ['n2', ''],
    ]);
    // Settled: the file links the board's scene where the pull names it, and one more cycle sends nothing.
    await cycle();
    await w.space.clearRequests();
    const again = await cycle();
    expect(again.exitCode).toBe(0);
    expect(await writesOf(w.space)).toEqual([]);
    // Named as the pull names a board (the service keeps no alt text for it): the scene file moved there.
    const named = `Roadmap.assets/whiteboard-${board.replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}.excalidraw`;
    expect(w.read(DOC)).toContain(`${LINK}\n\n![Whiteboard](${named})\n\nclosing words`);
    expect(fs.existsSync(w.file(copy))).toBe(false);
    expect((JSON.parse(w.read(`Unsorted/${named}`)) as Scene).elements.map((e) => e.id)).toContain('n1');
  });

  it('a scene that cannot be read draws nothing and says why; the line stays, unsent', async () => {
    fs.writeFileSync(w.file('Unsorted/Roadmap.assets/broken.excalidraw'), '{ not json');
    fs.writeFileSync(w.file(DOC), w.read(DOC).replace('closing words', '![Broken](Roadmap.assets/broken.excalidraw)\n\nclosing words'));
    const r = await cycle();
    expect(r.media?.notUploaded.map((f) => f.message)).toEqual([expect.stringContaining('cannot be drawn as a whiteboard: it is not valid JSON')]);
    expect(await whiteboardWrites()).toEqual([]);
    expect(w.read(DOC)).toContain('![Broken](Roadmap.assets/broken.excalidraw)');
  });
});
