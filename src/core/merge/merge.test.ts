import { describe, expect, it } from 'vitest';
import { changeSetOf } from './changeSet.js';
import { coreDialect } from './mergeFile.js';
import { diffDocument } from './diff.js';
import { mergeDocument } from './merge.js';
import {
  applyChanges,
  baseOf,
  blk,
  isEmptyChangeSet,
  localOfSpecs,
  outlineOfMerged,
  outlineOfRemote,
  pg,
  remoteOf,
  ro,
  type Spec,
} from '../../../test/support/coreSupport.js';
import type { LocalBlock, RemoteBlock } from '../types.js';

function run(baseSpecs: Spec[], local: LocalBlock[], remoteSpecs?: Spec[] | RemoteBlock[]) {
  const base = baseOf(baseSpecs);
  const remote =
    remoteSpecs === undefined
      ? undefined
      : remoteSpecs.length > 0 && !Array.isArray(remoteSpecs[0]) && 'parentId' in (remoteSpecs[0] as object)
        ? (remoteSpecs as RemoteBlock[])
        : remoteOf(remoteSpecs as Spec[]);
  const diff = diffDocument(base, local, { equals: coreDialect.equals });
  const m = mergeDocument({ base, diff, remote, dialect: coreDialect });
  const current = remote ?? base;
  const cs = changeSetOf(m.nodes, current, coreDialect.equals, { moveIntoNewPages: true });
  const after = applyChanges(current, cs);
  return { m, cs, after, file: outlineOfMerged(m.nodes, 'file'), service: outlineOfMerged(m.nodes, 'service') };
}

const DOC: Spec[] = [
  ['A', 'Alpha paragraph'],
  ['B', 'Beta paragraph'],
  ['C', 'Gamma paragraph'],
];
const local = (...mds: string[]) => mds.map(blk);

describe('mergeDocument: one side changed', () => {
  it('changes nothing when nothing changed', () => {
    const r = run(DOC, localOfSpecs(DOC), DOC);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.m.fileChanged).toBe(false);
    expect(r.m.conflicts).toEqual([]);
  });

  it('pushes a local edit as one edit of that block', () => {
    const r = run(DOC, local('Alpha paragraph', 'Beta, edited', 'Gamma paragraph'));
    expect(r.cs.edits).toEqual([{ id: 'B', markdown: 'Beta, edited', was: 'Beta paragraph' }]);
    expect(r.cs.moves.length + r.cs.inserts.length + r.cs.deletes.length).toBe(0);
    expect(r.m.fileChanged).toBe(false);
  });

  it('takes a remote edit into the file and sends nothing', () => {
    const r = run(DOC, localOfSpecs(DOC), [
      ['A', 'Alpha paragraph'],
      ['B', 'Beta from the app'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.m.fileChanged).toBe(true);
    expect(r.file).toEqual(['Alpha paragraph', 'Beta from the app', 'Gamma paragraph']);
    expect(r.m.nodes[1]).toMatchObject({ id: 'B', source: 'remote' });
  });

  it('pushes a local insert anchored after its previous block, and a delete last', () => {
    const r = run(DOC, local('New first', 'Alpha paragraph', 'Gamma paragraph', 'New last'));
    expect(r.cs.inserts.map((i) => [i.anchor, i.blocks.map((b) => b.markdown)])).toEqual([
      [{ start: null }, ['New first']],
      [{ after: 'C' }, ['New last']],
    ]);
    expect(r.cs.deletes).toEqual(['B']);
    expect(outlineOfRemote(r.after)).toEqual(['New first', 'Alpha paragraph', 'Gamma paragraph', 'New last']);
  });

  it('pulls remote inserts and deletes', () => {
    const r = run(DOC, localOfSpecs(DOC), [
      ['A', 'Alpha paragraph'],
      ['N', 'From the app'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.file).toEqual(['Alpha paragraph', 'From the app', 'Gamma paragraph']);
  });

  it('moves a block with one move request, keeping its id', () => {
    const r = run(DOC, local('Gamma paragraph', 'Alpha paragraph', 'Beta paragraph'));
    expect(r.cs.moves).toEqual([{ anchor: { start: null }, ids: ['C'] }]);
    expect(r.cs.edits.length + r.cs.inserts.length + r.cs.deletes.length).toBe(0);
  });
});

describe('mergeDocument: both sides changed', () => {
  it('merges edits of different blocks', () => {
    const r = run(DOC, local('Alpha, local edit', 'Beta paragraph', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['B', 'Beta paragraph'],
      ['C', 'Gamma, remote edit'],
    ]);
    expect(r.cs.edits.map((e) => e.id)).toEqual(['A']);
    expect(r.file).toEqual(['Alpha, local edit', 'Beta paragraph', 'Gamma, remote edit']);
    expect(outlineOfRemote(r.after)).toEqual(r.service);
    expect(r.m.conflicts).toEqual([]);
  });

  it('does nothing for the same edit on both sides, also when spelled differently', () => {
    const r = run(DOC, local('Alpha _em_', 'Beta paragraph', 'Gamma paragraph'), [
      ['A', 'Alpha *em*'],
      ['B', 'Beta paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.m.conflicts).toEqual([]);
    expect(r.m.fileChanged).toBe(false);
  });

  it('keeps the remote and reports a conflict when one block changed differently on both sides', () => {
    const r = run(DOC, local('Alpha paragraph', 'Beta, mine', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['B', 'Beta, theirs'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.m.conflicts).toEqual([{ id: 'B', base: 'Beta paragraph', local: 'Beta, mine', remote: 'Beta, theirs' }]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.file).toEqual(['Alpha paragraph', 'Beta, theirs', 'Gamma paragraph']);
  });

  it('merges a task date changed on one side with a text edit on the other, field by field', () => {
    const base: Spec[] = [['T', '- [ ] call Ana ⏳ 2026-12-01']];
    const r = run(base, [blk('- [ ] call Ana and Bo ⏳ 2026-12-01')], [['T', '- [ ] call Ana ⏳ 2026-12-03 📅 2026-12-09']]);
    expect(r.m.conflicts).toEqual([]);
    expect(r.file).toEqual(['- [ ] call Ana and Bo ⏳ 2026-12-03 📅 2026-12-09']);
    expect(r.cs.edits).toEqual([{ id: 'T', markdown: '- [ ] call Ana and Bo ⏳ 2026-12-03 📅 2026-12-09', was: '- [ ] call Ana ⏳ 2026-12-03 📅 2026-12-09' }]);
  });

  it('reports a conflict for a task date changed differently on both sides, the remote kept', () => {
    const base: Spec[] = [['T', '- [ ] call Ana ⏳ 2026-12-01']];
    const r = run(base, [blk('- [ ] call Ana ⏳ 2026-12-02')], [['T', '- [ ] call Ana ⏳ 2026-12-03']]);
    expect(r.m.conflicts).toEqual([
      { id: 'T', base: '- [ ] call Ana ⏳ 2026-12-01', local: '- [ ] call Ana ⏳ 2026-12-02', remote: '- [ ] call Ana ⏳ 2026-12-03' },
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.file).toEqual(['- [ ] call Ana ⏳ 2026-12-03']);
  });

  it('keeps a block deleted in the file but edited remotely (an edit beats a delete)', () => {
    const r = run(DOC, local('Alpha paragraph', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['B', 'Beta, edited remotely'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.cs.deletes).toEqual([]);
    expect(r.file).toEqual(['Alpha paragraph', 'Beta, edited remotely', 'Gamma paragraph']);
    expect(r.m.fileChanged).toBe(true);
  });

  it('re-inserts a block edited in the file but deleted remotely', () => {
    const r = run(DOC, local('Alpha paragraph', 'Beta, edited here', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.cs.inserts).toEqual([{ anchor: { after: 'A' }, blocks: [expect.objectContaining({ markdown: 'Beta, edited here', type: 'text' })] }]);
    expect(outlineOfRemote(r.after)).toEqual(['Alpha paragraph', 'Beta, edited here', 'Gamma paragraph']);
  });

  it('drops a block deleted remotely that the file did not change', () => {
    const r = run(DOC, localOfSpecs(DOC), [
      ['A', 'Alpha paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.file).toEqual(['Alpha paragraph', 'Gamma paragraph']);
  });

  it("keeps both inserts at one place, the file's first", () => {
    const r = run(DOC, local('Alpha paragraph', 'Mine', 'Beta paragraph', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['R', 'Theirs'],
      ['B', 'Beta paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.file).toEqual(['Alpha paragraph', 'Mine', 'Theirs', 'Beta paragraph', 'Gamma paragraph']);
    expect(r.cs.inserts).toEqual([{ anchor: { after: 'A' }, blocks: [expect.objectContaining({ markdown: 'Mine' })] }]);
  });

  it('takes the same insert on both sides once (also after an interrupted push)', () => {
    const r = run(DOC, local('Alpha paragraph', 'Same new', 'Also new', 'Beta paragraph', 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['R1', 'Same new'],
      ['R2', 'Also new'],
      ['B', 'Beta paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.m.fileChanged).toBe(false);
    expect(r.m.nodes.map((n) => n.id)).toEqual(['A', 'R1', 'R2', 'B', 'C']);
  });

  it('takes a file block paired as an edit as the block the service got with exactly its text (an insert that landed), not twice', () => {
    // An interrupted push had inserted the rewritten paragraph, and not yet deleted the old one.
    const rewritten = 'Beta paragraph, rewritten';
    const r = run(DOC, local('Alpha paragraph', rewritten, 'Gamma paragraph'), [
      ['A', 'Alpha paragraph'],
      ['B', 'Beta paragraph'],
      ['R1', rewritten],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.after.map((b) => b.markdown)).toEqual(['Alpha paragraph', rewritten, 'Gamma paragraph']);
    expect(r.cs.deletes).toEqual(['B']);
    expect(r.cs.edits).toEqual([]);
    expect(r.cs.inserts).toEqual([]);
    expect(r.file).toEqual(['Alpha paragraph', rewritten, 'Gamma paragraph']);
  });

  it('takes the remote place when both sides moved a block', () => {
    const FIVE: Spec[] = [
      ['A', 'a'],
      ['B', 'b'],
      ['C', 'c'],
      ['D', 'd'],
      ['E', 'e'],
    ];
    const r = run(FIVE, local('b', 'c', 'd', 'e', 'a'), [
      ['B', 'b'],
      ['C', 'c'],
      ['A', 'a'],
      ['D', 'd'],
      ['E', 'e'],
    ]);
    expect(r.file).toEqual(['b', 'c', 'a', 'd', 'e']);
    expect(isEmptyChangeSet(r.cs)).toBe(true);
  });

  it('moves a block locally while its text changes remotely', () => {
    const r = run(DOC, local('Beta paragraph', 'Gamma paragraph', 'Alpha paragraph'), [
      ['A', 'Alpha, remote'],
      ['B', 'Beta paragraph'],
      ['C', 'Gamma paragraph'],
    ]);
    expect(r.file).toEqual(['Beta paragraph', 'Gamma paragraph', 'Alpha, remote']);
    expect(r.cs.moves.map((m) => m.ids)).toEqual([['A']]);
    expect(r.cs.edits).toEqual([]);
  });
});

describe('mergeDocument: pages and cards', () => {
  const PAGES: Spec[] = [
    ['A', 'Intro'],
    [
      'P',
      'Plans',
      [
        ['C1', 'first plan'],
        ['C2', 'second plan'],
      ],
    ],
    ['Z', 'End'],
  ];

  it('keeps a page deleted in the file when the service changed something inside it', () => {
    const r = run(PAGES, local('Intro', 'End'), [
      ['A', 'Intro'],
      [
        'P',
        'Plans',
        [
          ['C1', 'first plan, edited'],
          ['C2', 'second plan'],
        ],
      ],
      ['Z', 'End'],
    ]);
    expect(r.cs.deletes).toEqual([]);
    expect(r.file).toEqual(['Intro', ['page:Plans', ['first plan, edited', 'second plan']], 'End']);
  });

  it('deletes a page deleted in the file, with its children, in one id', () => {
    const r = run(PAGES, local('Intro', 'End'));
    expect(r.cs.deletes).toEqual(['P']);
  });

  it('re-creates a page deleted remotely when the file added to it', () => {
    const r = run(
      PAGES,
      [blk('Intro'), pg('Plans', [blk('first plan'), blk('second plan'), blk('third, new')]), blk('End')],
      [
        ['A', 'Intro'],
        ['Z', 'End'],
      ],
    );
    expect(r.cs.inserts.length).toBe(1);
    expect(r.cs.inserts[0]!.anchor).toEqual({ after: 'A' });
    expect(outlineOfRemote(r.after)).toEqual(['Intro', ['page:Plans', ['first plan', 'second plan', 'third, new']], 'End']);
  });

  it('inserts into an existing page at its start and after a sibling', () => {
    const r = run(PAGES, [blk('Intro'), pg('Plans', [blk('zeroth'), blk('first plan'), blk('second plan'), blk('x')]), blk('End')]);
    expect(r.cs.inserts.map((i) => i.anchor)).toEqual([{ start: 'P' }, { after: 'C2' }]);
  });

  it('creates a new card with its children in one insert', () => {
    const r = run(PAGES, [...localOfSpecs(PAGES), pg('Card', [blk('inside')], 'card')]);
    expect(r.cs.inserts).toEqual([
      {
        anchor: { after: 'Z' },
        blocks: [
          {
            ref: 'new:1',
            kind: 'card',
            type: 'page',
            markdown: 'Card',
            children: [{ ref: 'new:2', kind: 'block', type: 'text', markdown: 'inside', children: [] }],
          },
        ],
      },
    ]);
  });

  it('without moves into new pages, re-creates wrapped blocks inside the new card (text kept, ids not)', () => {
    const base = baseOf(DOC);
    const local = [blk('Alpha paragraph'), pg('Wrapper', [blk('Beta paragraph')], 'card'), blk('Gamma paragraph')];
    const m = mergeDocument({ base, diff: diffDocument(base, local, { equals: coreDialect.equals }), dialect: coreDialect });
    const cs = changeSetOf(m.nodes, base, coreDialect.equals);
    expect(cs.lateMoves).toEqual([]);
    expect(cs.deletes).toEqual(['B']);
    expect(outlineOfRemote(applyChanges(base, cs))).toEqual(['Alpha paragraph', ['card:Wrapper', ['Beta paragraph']], 'Gamma paragraph']);
  });

  it('wraps existing blocks into a new card keeping their ids: create the card, then move them in', () => {
    const r = run(DOC, [blk('Alpha paragraph'), pg('Wrapper', [blk('Intro'), blk('Beta paragraph'), blk('Gamma paragraph')], 'card')]);
    expect(r.cs.inserts).toEqual([
      {
        anchor: { after: 'A' },
        blocks: [expect.objectContaining({ ref: 'new:1', markdown: 'Wrapper', children: [expect.objectContaining({ ref: 'new:2', markdown: 'Intro' })] })],
      },
    ]);
    expect(r.cs.lateMoves).toEqual([{ anchor: { after: 'new:2' }, ids: ['B', 'C'] }]);
    expect(r.cs.deletes).toEqual([]);
    expect(outlineOfRemote(r.after)).toEqual(['Alpha paragraph', ['card:Wrapper', ['Intro', 'Beta paragraph', 'Gamma paragraph']]]);
    expect(r.after.filter((b) => b.parentId === 'new:1').map((b) => b.id)).toEqual(['new:2', 'B', 'C']);
  });
});

describe('mergeDocument: what is not sent', () => {
  it('replaces a block whose type changed (paragraph → code)', () => {
    const r = run(DOC, local('Alpha paragraph', '```js\nx()\n```', 'Gamma paragraph'));
    expect(r.cs.edits).toEqual([]);
    expect(r.cs.deletes).toEqual(['B']);
    expect(r.cs.inserts).toEqual([{ anchor: { after: 'A' }, blocks: [expect.objectContaining({ type: 'code', markdown: '```js\nx()\n```' })] }]);
  });

  it('edits a code block in place', () => {
    const r = run([{ id: 'K', type: 'code', markdown: '```js\nx()\n```' }], local('```js\ny()\n```'));
    expect(r.cs.edits).toEqual([{ id: 'K', markdown: '```js\ny()\n```', was: '```js\nx()\n```' }]);
  });

  it('holds back an edit the service would split, keeps it in the file, and reports it', () => {
    const r = run(DOC, local('Alpha paragraph', 'Beta\n\nand a second paragraph', 'Gamma paragraph'));
    expect(isEmptyChangeSet(r.cs)).toBe(true);
    expect(r.m.fileChanged).toBe(false);
    expect(r.m.problems).toEqual([expect.objectContaining({ id: 'B', message: expect.stringContaining('not sent') })]);
  });

  it('holds back a new block the service would split, and anchors the next insert around it', () => {
    const r = run(DOC, local('Alpha paragraph', 'one\n\ntwo', 'fine', 'Beta paragraph', 'Gamma paragraph'));
    expect(r.cs.inserts).toEqual([{ anchor: { after: 'A' }, blocks: [expect.objectContaining({ markdown: 'fine' })] }]);
    expect(r.m.problems.length).toBe(1);
    expect(r.file).toEqual(['Alpha paragraph', 'one\n\ntwo', 'fine', 'Beta paragraph', 'Gamma paragraph']);
    expect(r.service).toEqual(['Alpha paragraph', 'fine', 'Beta paragraph', 'Gamma paragraph']);
  });

  it('never sends an edit of output-only content, and puts a deleted collection back', () => {
    const COL: Spec[] = [['A', 'Alpha'], { id: 'COL', type: 'collection', markdown: '' }];
    const rendered = remoteOf(COL)[1]!;
    expect(rendered.kind).toBe('readonly');
    expect(run(COL, [blk('Alpha'), ro(rendered.markdown)]).m.problems).toEqual([]);
    const edited = run(COL, [blk('Alpha'), ro(`${rendered.markdown}x`)]);
    expect(isEmptyChangeSet(edited.cs)).toBe(true);
    expect(edited.m.problems.length).toBe(1);
    const deleted = run(COL, [blk('Alpha')]);
    expect(deleted.cs.deletes).toEqual([]);
    expect(deleted.m.fileChanged).toBe(true);
    expect(deleted.m.problems[0]!.message).toContain('cannot be deleted through the file');
  });

  it('puts a drawing deleted in the file back', () => {
    const r = run([['A', 'Alpha'], { id: 'W', type: 'drawing', markdown: '![Image](https://x/w.png?sig=1)' }], [blk('Alpha')]);
    expect(r.cs.deletes).toEqual([]);
    expect(r.file).toEqual(['Alpha', '![Image](https://x/w.png?sig=1)']);
  });

  it('deletes a whiteboard whose link the file removed: its scene file held its elements', () => {
    const r = run([['A', 'Alpha'], { id: 'W', type: 'whiteboard', markdown: '![Whiteboard](Doc.assets/whiteboard-W.excalidraw)' }], [blk('Alpha')]);
    expect(r.cs.deletes).toEqual(['W']);
    expect(r.file).toEqual(['Alpha']);
  });
});
