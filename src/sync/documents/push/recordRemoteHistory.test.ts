import { afterEach, beforeEach, expect, it } from 'vitest';
import { hashBlock } from '../../../core/merge/hashBlock.js';
import { openJournal, type BaseBlock, type Journal } from '../../../journal/index.js';
import type { DocumentTask } from './PushPlan.js';
import { recordRemoteHistory } from './recordRemoteHistory.js';

const block = (id: string, parentId: string | null, position: number, markdown: string): BaseBlock => ({
  id,
  parentId,
  position,
  level: parentId === null ? 0 : 1,
  kind: 'block',
  type: 'text',
  markdown,
  hash: hashBlock(markdown, 'block'),
});
const base = [block('a', null, 0, 'first'), block('b', null, 1, '- parent'), block('c', 'b', 0, '- child'), block('d', null, 2, 'last')];
const record = {
  id: 'doc',
  path: 'Unsorted/Doc.md',
  title: 'Doc',
  location: 'unsorted' as const,
  folderId: null,
  dailyNoteDate: null,
  remoteModifiedAt: null,
  createdAt: null,
  fileHash: null,
};
const task = (edits: string[], deletes: string[]) =>
  ({
    doc: 'doc',
    record,
    local: null,
    base,
    remote: null,
    file: {
      changes: {
        edits: edits.map((id) => ({ id, markdown: 'new' })),
        moves: [],
        inserts: [],
        lateMoves: [],
        deletes,
        removedBlocks: deletes.length,
        expected: [],
      },
    },
  }) as unknown as DocumentTask;

let journal: Journal;
beforeEach(() => {
  journal = openJournal(':memory:');
  journal.upsertDocument(record);
});
afterEach(() => journal.close());
const ctx = () => ({ journal, now: () => new Date('2026-01-02T03:04:05.678Z'), settings: { versions: { keepDays: 30, maxMiB: 200 } } });

it('keeps only the blocks a push edits, as the space held them', () => {
  recordRemoteHistory(ctx(), task(['d'], []), 'PUT /blocks');
  const [v] = journal.listHistory();
  expect(v).toMatchObject({
    side: 'remote',
    docId: 'doc',
    at: '2026-01-02T03:04:05.678Z',
    request: 'PUT /blocks',
    summary: { added: 0, removed: 0, edited: 1 },
  });
  expect(v!.blocks).toEqual([{ id: 'd', parentId: null, position: 2, level: 0, kind: 'block', type: 'text', markdown: 'last', change: 'edited' }]);
  expect(v!.size).toBeGreaterThan(0);
});

it('keeps a deleted block with its subtree, and an edited block beside it', () => {
  recordRemoteHistory(ctx(), task(['a'], ['b']), 'PUT /blocks, DELETE /blocks');
  const [v] = journal.listHistory();
  expect(v!.blocks!.map((b) => [b.id, b.change])).toEqual([
    ['a', 'edited'],
    ['b', 'deleted'],
    ['c', 'deleted'],
  ]);
});

it('keeps nothing when the history is off', () => {
  recordRemoteHistory({ ...ctx(), settings: { versions: { keepDays: 0, maxMiB: 200 } } }, task(['a'], ['b']), 'PUT /blocks');
  expect(journal.listHistory()).toEqual([]);
});

it("keeps a card's layout, which a base block has in its hash only, and the fields the file does not show", () => {
  const card: BaseBlock = { ...block('k', null, 4, 'A small card'), kind: 'card', type: 'page', hash: hashBlock('A small card', 'card', 'small') };
  const red: BaseBlock = { ...block('r', null, 5, 'Justified and red'), unshown: { textAlignment: 'justify', color: '#ef052a' } };
  recordRemoteHistory(ctx(), { ...task([], ['k', 'r']), base: [...base, card, red] } as DocumentTask, 'DELETE /blocks');
  expect(journal.listHistory()[0]!.blocks).toEqual([
    { id: 'k', parentId: null, position: 4, level: 0, kind: 'card', type: 'page', markdown: 'A small card', cardLayout: 'small', change: 'deleted' },
    { id: 'r', parentId: null, position: 5, level: 0, kind: 'block', type: 'text', markdown: 'Justified and red', unshown: red.unshown, change: 'deleted' },
  ]);
});
