// A card's layout (`<card cardLayout="…">`) against the real server: a new card is created with it,
// a layout changed in the file is one PUT /blocks, a layout changed in the app reaches the file and
// is never undone by a later push, and a value the service does not know is held and reported.
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/dialect/index.js';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import { applyLocal, closeWorld, expectConverged, expectIdle, openWorld, runScenario, writesOf, type Scenario, type World } from './pushHarness.js';

const cards: SpaceFixture = {
  version: 1,
  space: { id: 'S-CARDS', name: 'Cards', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-BOARD',
      title: 'Board',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'K1', markdown: 'intro' },
        { id: 'K-CARD', type: 'page', textStyle: 'card', cardLayout: 'small', title: 'A card', content: [{ id: 'K-IN', markdown: 'inside the card' }] },
        { id: 'K2', markdown: 'closing' },
      ],
    },
  ],
};
const FILE = 'Unsorted/Board.md';
const CARD = '<card cardLayout="small">\n<pageTitle>A card</pageTitle>\n<content>\ninside the card\n</content>\n</card>';

/** The service's block of that id, looked up anywhere in the document. */
async function serviceBlock(w: World, id: string): Promise<Block> {
  const find = (list: readonly Block[]): Block | undefined => {
    for (const b of list) {
      if (b.id === id) return b;
      const inner = find(b.content ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  const found = find(((await w.space.call('GET', '/blocks', undefined, { id: 'D-BOARD' })) as Block).content ?? []);
  if (!found) throw new Error(`no block ${id} in D-BOARD`);
  return found;
}

/** The bodies of the PUT /blocks steps the cycle planned. */
const putBodies = (r: Awaited<ReturnType<typeof syncOnce>>) => r.push.plan.steps.filter((s) => s.method === 'PUT' && s.path === '/blocks').map((s) => s.body);

const scenarios: Scenario[] = [
  {
    name: "the file as the mirror wrote it: a card's layout is not sent again",
    fixture: cards,
    local: [{ edit: FILE, from: 'closing', to: 'closing words' }],
    writes: ['PUT /blocks'],
    check: async (w, r) => {
      expect(w.read(FILE)).toContain(CARD);
      expect(putBodies(r)).toEqual([{ blocks: [{ id: 'K2', markdown: 'closing words' }] }]);
    },
  },
  {
    name: 'a new card written with a layout is created with it, in the same insert',
    fixture: cards,
    local: [
      { edit: FILE, from: 'closing', to: 'closing\n\n<card cardLayout="large">\n<pageTitle>New card</pageTitle>\n<content>\nfresh\n</content>\n</card>' },
    ],
    writes: ['POST /blocks'],
    documents: { 'D-BOARD': ['intro', 'A card', 'inside the card', 'closing', 'New card', 'fresh'] },
    check: async (w, r) => {
      const post = r.push.plan.steps.find((s) => s.method === 'POST' && s.path === '/blocks')!;
      expect((post.body as { blocks: unknown[] }).blocks).toEqual([
        { type: 'page', markdown: 'New card', textStyle: 'card', cardLayout: 'large', content: [{ type: 'text', markdown: 'fresh' }] },
      ]);
      const doc = (await w.space.call('GET', '/blocks', undefined, { id: 'D-BOARD' })) as Block;
      expect(doc.content!.find((b) => b.markdown === 'New card')).toMatchObject({ textStyle: 'card', cardLayout: 'large' });
    },
  },
  {
    name: 'a layout changed in the file is one PUT /blocks; the card keeps its id and children',
    fixture: cards,
    local: [{ edit: FILE, from: 'cardLayout="small"', to: 'cardLayout="square"' }],
    writes: ['PUT /blocks'],
    keptIds: ['K-CARD', 'K-IN'],
    check: async (w, r) => {
      expect(putBodies(r)).toEqual([{ blocks: [{ id: 'K-CARD', markdown: 'A card', cardLayout: 'square' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ textStyle: 'card', cardLayout: 'square', markdown: 'A card' });
      expect(w.read(FILE)).toContain('<card cardLayout="square">');
    },
  },
  {
    name: 'the longer form <page textStyle="card" cardLayout="…"> changes the layout too',
    fixture: cards,
    local: [
      { edit: FILE, from: CARD, to: CARD.replace('<card cardLayout="small">', '<page textStyle="card" cardLayout="regular">').replace('</card>', '</page>') },
    ],
    writes: ['PUT /blocks'],
    check: async (w) => {
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'regular' });
    },
  },
  {
    name: 'a title and a layout changed together are one block of one PUT',
    fixture: cards,
    local: [
      { edit: FILE, from: '<card cardLayout="small">\n<pageTitle>A card</pageTitle>', to: '<card cardLayout="large">\n<pageTitle>Renamed card</pageTitle>' },
    ],
    writes: ['PUT /blocks'],
    check: async (w, r) => {
      expect(putBodies(r)).toEqual([{ blocks: [{ id: 'K-CARD', markdown: 'Renamed card', cardLayout: 'large' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ markdown: 'Renamed card', cardLayout: 'large' });
    },
  },
  {
    name: 'a layout changed in the app comes into the file, and a later edit of the file does not undo it',
    fixture: cards,
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'K-CARD', cardLayout: 'large' }] } }],
    writes: [],
    check: async (w) => {
      expect(w.read(FILE)).toContain('<card cardLayout="large">');
      applyLocal(w, [{ edit: FILE, from: 'closing', to: 'closing, edited' }]);
      await w.space.clearRequests();
      const again = await syncOnce(w.session.ctx);
      expect(await writesOf(w.space)).toEqual(['PUT /blocks']);
      expect(putBodies(again)).toEqual([{ blocks: [{ id: 'K2', markdown: 'closing, edited' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'large' });
    },
  },
  {
    name: "both sides changed the layout: the file's edit is sent",
    fixture: cards,
    remote: [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'K-CARD', cardLayout: 'large' }] } }],
    local: [{ edit: FILE, from: 'cardLayout="small"', to: 'cardLayout="square"' }],
    writes: ['PUT /blocks'],
    check: async (w) => {
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'square' });
      expect(w.read(FILE)).toContain('<card cardLayout="square">');
    },
  },
  {
    name: 'a new card with a layout the service does not know is held back and reported; the rest is sent',
    fixture: cards,
    local: [
      { edit: FILE, from: 'closing', to: 'closing, edited\n\n<card cardLayout="huge">\n<pageTitle>Big card</pageTitle>\n<content>\nheld\n</content>\n</card>' },
    ],
    writes: ['PUT /blocks'],
    converges: false,
    problems: [/Not sent: its card layout "huge" is not one the service knows \(small, square, regular, large\)\. It stays in the file; fix it there\./],
    exitCode: 4,
    idleExitCode: 4,
    documents: { 'D-BOARD': ['intro', 'A card', 'inside the card', 'closing, edited'] },
    check: async (w) => {
      expect(w.read(FILE)).toContain('<card cardLayout="huge">\n<pageTitle>Big card</pageTitle>');
      // Held content is reported every cycle until it is fixed.
      const again = await syncOnce(w.session.ctx);
      expect(again.push.plan.problems.map((p) => p.message)).toEqual([expect.stringMatching(/card layout "huge"/)]);
    },
  },
  {
    name: 'an existing card given a layout the service does not know: not sent, reported; fixed later, it is sent',
    fixture: cards,
    local: [
      { edit: FILE, from: 'cardLayout="small"', to: 'cardLayout="huge"' },
      { edit: FILE, from: 'closing', to: 'closing, edited' },
    ],
    writes: ['PUT /blocks'],
    problems: [/This card's layout is not sent: its card layout "huge" is not one the service knows/],
    exitCode: 4,
    check: async (w, r) => {
      expect(putBodies(r)).toEqual([{ blocks: [{ id: 'K2', markdown: 'closing, edited' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'small' });
      applyLocal(w, [{ edit: FILE, from: 'cardLayout="huge"', to: 'cardLayout="regular"' }]);
      await w.space.clearRequests();
      const fixed = await syncOnce(w.session.ctx);
      expect(fixed.push.plan.problems).toEqual([]);
      expect(putBodies(fixed)).toEqual([{ blocks: [{ id: 'K-CARD', markdown: 'A card', cardLayout: 'regular' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'regular' });
    },
  },
];

describe('card layouts through the push', () => {
  for (const s of scenarios) it(s.name, () => runScenario(s));

  it("the app changed the layout while the file was edited elsewhere: the app's layout is never undone; the file shows it once the document is read again", async () => {
    const w = await openWorld(cards);
    try {
      await w.space.call('PUT', '/blocks', { blocks: [{ id: 'K-CARD', cardLayout: 'large' }] });
      applyLocal(w, [{ edit: FILE, from: 'intro', to: 'intro, edited' }]);
      await w.space.clearRequests();
      const first = await syncOnce(w.session.ctx);
      expect(first.exitCode).toBe(0);
      expect(putBodies(first)).toEqual([{ blocks: [{ id: 'K1', markdown: 'intro, edited' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'large' });
      // The push keeps the file's bytes of the card (and records its layout as the file shows it),
      // so later pushes, with more edits of the file, still leave the app's layout alone.
      applyLocal(w, [{ edit: FILE, from: 'closing', to: 'closing, edited' }]);
      await w.space.clearRequests();
      const second = await syncOnce(w.session.ctx);
      expect(putBodies(second)).toEqual([{ blocks: [{ id: 'K2', markdown: 'closing, edited' }] }]);
      expect(await serviceBlock(w, 'K-CARD')).toMatchObject({ cardLayout: 'large' });
      await expectIdle(w);
      // The next change in the app has the pull read the document: the file then shows the layout.
      await w.space.call('PUT', '/blocks', { blocks: [{ id: 'K-IN', markdown: 'inside, edited in the app' }] });
      const third = await syncOnce(w.session.ctx);
      expect(third.exitCode).toBe(0);
      expect(w.read(FILE)).toContain('<card cardLayout="large">\n<pageTitle>A card</pageTitle>\n<content>\ninside, edited in the app\n');
      await expectConverged(w);
      await expectIdle(w);
    } finally {
      await closeWorld(w);
    }
  });
});
