import { describe, expect, it } from 'vitest';
import { changeSetOf, type ChangeSet } from '../merge/changeSet.js';
import { coreDialect } from '../merge/mergeFile.js';
import { docRef, planSync, type PlanStep } from './plan.js';
import { readYields, resolveStep } from './refs.js';
import { baseOf, blk, localOfSpecs, pg, runMerge, type Spec } from '../../../test/support/coreSupport.js';
import type { LocalBlock, RemoteBlock } from '../types.js';

const DOC: Spec[] = [
  ['A', 'Alpha'],
  ['B', 'Beta'],
  ['C', 'Gamma'],
];
const changes = (specs: Spec[], local: LocalBlock[], remote?: RemoteBlock[]): ChangeSet => runMerge(baseOf(specs), local, remote).cs;
const brief = (steps: PlanStep[]) => steps.map((s) => `${s.method} ${s.path}`);

describe('planSync: one document', () => {
  it('sends a one-block edit as one PUT /blocks with one block', () => {
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: changes(DOC, [blk('Alpha'), blk('Beta!'), blk('Gamma')]) }] });
    expect(steps).toEqual([
      {
        method: 'PUT',
        path: '/blocks',
        blocks: 1,
        docs: ['D1'],
        parts: ['D1'],
        body: { blocks: [{ id: 'B', markdown: 'Beta!' }] },
        describe: 'PUT /blocks: edit 1 block in "Plan"',
      },
    ]);
  });

  it('orders edits, moves, inserts and deletes, one request each', () => {
    const cs = changes(DOC, [blk('Gamma'), blk('Alpha, edited'), blk('New one'), blk('New two')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(brief(steps)).toEqual(['PUT /blocks', 'PUT /blocks/move', 'POST /blocks', 'DELETE /blocks']);
    expect(steps[1]!.body).toEqual({ blockIds: ['C'], position: { position: 'start', pageId: 'D1' } });
    expect(steps[2]!.body).toEqual({
      blocks: [
        { type: 'text', markdown: 'New one' },
        { type: 'text', markdown: 'New two' },
      ],
      position: { position: 'after', siblingId: 'A' },
    });
    expect(steps[2]!.yields).toEqual([
      { ref: '@ref:block:D1:new:1', at: [0] },
      { ref: '@ref:block:D1:new:2', at: [1] },
    ]);
    expect(steps[3]!.body).toEqual({ blockIds: ['B'] });
  });

  it('inserts a nested card with its children in one request', () => {
    const cs = changes(DOC, [...localOfSpecs(DOC), pg('Card', [blk('inside'), pg('Inner', [blk('deep')])], 'card')]);
    const [step] = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(step!.body).toEqual({
      blocks: [
        {
          type: 'page',
          textStyle: 'card',
          markdown: 'Card',
          content: [
            { type: 'text', markdown: 'inside' },
            { type: 'page', markdown: 'Inner', content: [{ type: 'text', markdown: 'deep' }] },
          ],
        },
      ],
      position: { position: 'after', siblingId: 'C' },
    });
    expect(step!.blocks).toBe(4);
    expect(step!.yields!.map((y) => y.at)).toEqual([[0], [0, 0], [0, 1], [0, 1, 0]]);
  });

  it('moves existing blocks into a new card after creating it, by its ref', () => {
    const cs = changes(DOC, [pg('Card', [blk('Alpha'), blk('Beta')], 'card'), blk('Gamma')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(brief(steps)).toEqual(['POST /blocks', 'PUT /blocks/move']);
    expect(steps[1]!.body).toEqual({ blockIds: ['A', 'B'], position: { position: 'start', pageId: '@ref:block:D1:new:1' } });
  });

  it('splits large writes, each part after the last block of the part before', () => {
    const many = Array.from({ length: 7 }, (_, i) => blk(`new ${i}`));
    const cs = changes(DOC, [...localOfSpecs(DOC), ...many]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] }, { maxBlocksPerRequest: 3 });
    expect(steps.map((s) => (s.body as { position: unknown }).position)).toEqual([
      { position: 'after', siblingId: 'C' },
      { position: 'after', siblingId: '@ref:block:D1:new:3' },
      { position: 'after', siblingId: '@ref:block:D1:new:6' },
    ]);
    expect(steps.map((s) => s.blocks)).toEqual([3, 3, 1]);
    const edits = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: changes(DOC, [blk('a'), blk('b'), blk('c')]) }] }, { maxBlocksPerRequest: 2 });
    expect(edits.map((s) => s.blocks)).toEqual([2, 1]);
  });
});

describe('planSync: task dates', () => {
  const TASKS: Spec[] = [
    ['T', '- [ ] call Ana ⏳ 2026-12-01'],
    ['U', '- [ ] pay 📅 2026-12-05'],
  ];

  it('sends a changed, an added and a removed date as one PUT /tasks step, no PUT /blocks', () => {
    const cs = changes(TASKS, [blk('- [ ] call Ana ⏳ 2026-12-02 📅 2026-12-09'), blk('- [ ] pay')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(steps).toEqual([
      {
        method: 'PUT',
        path: '/tasks',
        blocks: 2,
        docs: ['D1'],
        parts: ['D1', 'D1'],
        body: {
          tasksToUpdate: [
            { id: 'T', taskInfo: { scheduleDate: '2026-12-02', deadlineDate: '2026-12-09' } },
            { id: 'U', taskInfo: { deadlineDate: null } },
          ],
        },
        describe: 'PUT /tasks: set the dates of 2 tasks in "Plan"',
      },
    ]);
  });

  it('sends a text edit of a dated task line as markdown without the dates, and its date change after it', () => {
    const cs = changes(TASKS, [blk('- [ ] call Ana soon ⏳ 2026-12-03'), blk('- [ ] pay 📅 2026-12-05')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(brief(steps)).toEqual(['PUT /blocks', 'PUT /tasks']);
    expect(steps[0]!.body).toEqual({ blocks: [{ id: 'T', markdown: '- [ ] call Ana soon' }] });
    expect(steps[1]!.body).toEqual({ tasksToUpdate: [{ id: 'T', taskInfo: { scheduleDate: '2026-12-03' } }] });
  });

  it('creates a new dated task line without its dates, then sets them by its ref', () => {
    const cs = changes(TASKS, [...localOfSpecs(TASKS), blk('- [ ] new one 📅 2027-01-02')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    expect(brief(steps)).toEqual(['POST /blocks', 'PUT /tasks']);
    expect((steps[0]!.body as { blocks: unknown[] }).blocks).toEqual([{ type: 'text', markdown: '- [ ] new one' }]);
    expect(steps[1]!.body).toEqual({ tasksToUpdate: [{ id: '@ref:block:D1:new:1', taskInfo: { deadlineDate: '2027-01-02' } }] });
  });

  it('sends nothing for the signifiers respelled (order, spaces)', () => {
    const cs = changes([['T', '- [ ] call Ana ⏳ 2026-12-01 📅 2026-12-05']], [blk('- [ ] call Ana  📅 2026-12-05 ⏳ 2026-12-01')]);
    expect(planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] })).toEqual([]);
  });
});

describe('planSync: documents and folders', () => {
  it('creates a new document in its folder, then fills it from the start of its page', () => {
    const ref = docRef('Projects/New.md');
    const cs = changeSetOf(runMerge([], [blk('hello'), blk('world')], undefined).m.nodes, [], coreDialect.equals);
    const steps = planSync({ documents: [{ doc: ref, name: 'New', decision: { create: { title: 'New', destination: { folderId: 'F' } } }, changes: cs }] });
    expect(steps[0]).toMatchObject({
      method: 'POST',
      path: '/documents',
      body: { documents: [{ title: 'New' }], destination: { folderId: 'F' } },
      yields: [{ ref, at: [0] }],
    });
    expect(steps[1]!.body).toMatchObject({ position: { position: 'start', pageId: ref } });
  });

  it('creates a daily note by writing into its date, then reads its id', () => {
    const ref = docRef('Daily Notes/2026-11-21.md');
    const cs = changeSetOf(runMerge([], [blk('today')], undefined).m.nodes, [], coreDialect.equals);
    const steps = planSync({ documents: [{ doc: ref, name: '2026-11-21', decision: { create: { dailyNoteDate: '2026-11-21' } }, changes: cs }] });
    expect(brief(steps)).toEqual(['POST /blocks', 'GET /blocks']);
    expect(steps[0]!.body).toMatchObject({ position: { position: 'end', date: '2026-11-21' } });
    expect(steps[1]).toMatchObject({ query: { date: '2026-11-21', maxDepth: '0' }, yields: [{ ref, at: [] }] });
  });

  it('batches creates, moves, renames, block deletes and trashing across documents', () => {
    const steps = planSync({
      documents: [
        { doc: docRef('a'), name: 'A', decision: { create: { title: 'A', destination: { location: 'unsorted' } } } },
        { doc: docRef('b'), name: 'B', decision: { create: { title: 'B', destination: { location: 'unsorted' } } } },
        { doc: 'D1', name: 'One', decision: { move: { folderId: 'F' }, rename: 'One!' }, changes: changes(DOC, [blk('Alpha'), blk('Beta')]) },
        { doc: 'D2', name: 'Two', decision: { move: { folderId: 'F' } }, changes: changes(DOC, [blk('Alpha'), blk('Gamma')]) },
        { doc: 'D3', name: 'Three', decision: { trash: true } },
        { doc: 'D4', name: 'Four', decision: { trash: true } },
      ],
    });
    expect(brief(steps)).toEqual(['POST /documents', 'PUT /documents/move', 'PUT /blocks', 'DELETE /blocks', 'DELETE /documents']);
    expect(steps[0]!.body).toEqual({ documents: [{ title: 'A' }, { title: 'B' }] });
    expect(steps[1]!.body).toEqual({ documentIds: ['D1', 'D2'], destination: { folderId: 'F' } });
    expect(steps[2]!.body).toEqual({ blocks: [{ id: 'D1', markdown: 'One!' }] });
    expect(steps[3]!.body).toEqual({ blockIds: ['C', 'B'] });
    expect(steps[4]!.body).toEqual({ documentIds: ['D3', 'D4'] });
  });

  it('spells out a folder rename as create, move contents, delete', () => {
    const steps = planSync({
      documents: [],
      folders: {
        creates: [{ ref: '@ref:folder:Work', name: 'Work', parent: null, path: 'Work' }],
        renames: [{ id: 'P', from: 'Projects', to: 'Work', ref: '@ref:folder:Work', documentIds: ['D1', 'NEW'], subfolderIds: ['S'] }],
        moves: [],
        deletes: [],
      },
    });
    expect(brief(steps)).toEqual(['POST /folders', 'PUT /documents/move', 'PUT /folders/move', 'DELETE /folders']);
    expect(steps[1]!.body).toEqual({ documentIds: ['D1', 'NEW'], destination: { folderId: '@ref:folder:Work' } });
    expect(steps[2]!.body).toEqual({ folderIds: ['S'], destination: { parentFolderId: '@ref:folder:Work' } });
    expect(steps[3]!.describe).toContain('no folder rename');
  });

  it('creates nested new folders one level per request', () => {
    const steps = planSync({
      documents: [],
      folders: {
        creates: [
          { ref: '@ref:folder:N', name: 'N', parent: null, path: 'N' },
          { ref: '@ref:folder:N/M', name: 'M', parent: '@ref:folder:N', path: 'N/M' },
          { ref: '@ref:folder:O', name: 'O', parent: null, path: 'O' },
        ],
        renames: [],
        moves: [],
        deletes: [],
      },
    });
    expect(steps.map((s) => s.body)).toEqual([{ folders: [{ name: 'N' }, { name: 'O' }] }, { folders: [{ name: 'M', parentFolderId: '@ref:folder:N' }] }]);
  });
});

describe('refs', () => {
  it('reads created ids from answers and puts them into later steps', () => {
    const cs = changes(DOC, [pg('Card', [blk('x')], 'card'), blk('Alpha'), blk('Beta'), blk('Gamma')]);
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: cs }] });
    const ids = new Map<string, string>();
    const post = steps[0]!;
    const got = readYields(post, { items: [{ id: 'CARD', content: [{ id: 'X' }] }] });
    expect(got.missing).toEqual([]);
    for (const [k, v] of got.ids) ids.set(k, v);
    expect([...ids.values()]).toEqual(['CARD', 'X']);
    const next: PlanStep = {
      method: 'PUT',
      path: '/blocks/move',
      blocks: 1,
      docs: ['D1'],
      body: { blockIds: ['A'], position: { position: 'start', pageId: '@ref:block:D1:new:1' } },
      describe: '',
    };
    expect(resolveStep(next, ids)).toEqual({ ok: true, step: { ...next, body: { blockIds: ['A'], position: { position: 'start', pageId: 'CARD' } } } });
    expect(resolveStep(next, new Map())).toEqual({ ok: false, missing: ['@ref:block:D1:new:1'] });
  });

  it('reports every ref missing when the service answers with another number of blocks', () => {
    const steps = planSync({ documents: [{ doc: 'D1', name: 'Plan', changes: changes(DOC, [...localOfSpecs(DOC), blk('n1'), blk('n2')]) }] });
    expect(readYields(steps[0]!, { items: [{ id: 'only one' }] }).missing.length).toBe(2);
  });
});
