import { describe, expect, it } from 'vitest';
import { parseCollectionTable, type CollectionTable } from '../../dialect/index.js';
import { alignRows, planCollectionPush, type CollectionPushInput, type PropertyType } from './planCollectionPush.js';

const t = (header: string, ...rows: string[]): CollectionTable =>
  parseCollectionTable(['<collection name="Books">', '', header, header.replace(/[^|]+/g, ' --- '), ...rows, '', '</collection>'].join('\n'));

const H = '| title | status | due | pages |';
const base = t(H, '| Dune | Reading | 2026-12-01 | 412 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  |  |');
const ids = ['I1', 'I2', 'I3'];
const types = new Map<string, PropertyType>([
  ['status', { type: 'singleSelect', options: ['Reading', 'Done'] }],
  ['due', { type: 'date' }],
  ['pages', { type: 'number' }],
]);
const plan = (local: CollectionTable, remote: CollectionTable = base, extra: Partial<CollectionPushInput> = {}) =>
  planCollectionPush({ name: 'Books', base, baseIds: ids, local, remote: { table: remote, ids }, types, ...extra });

describe('planCollectionPush', () => {
  it('sends only the changed cells of a row, typed by the schema', () => {
    const p = plan(t(H, '| Dune | Done | 2026-12-01 | 500 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  |  |'));
    expect(p).toMatchObject({
      kind: 'send',
      update: [{ id: 'I1', properties: { status: 'Done', pages: 500 } }],
      create: [],
      remove: [],
      allowNewSelectOptions: false,
    });
  });

  it('creates an added row, deletes a removed one, and clears an emptied cell', () => {
    const p = plan(t(H, '| Dune | Reading |  | 412 |', '| Ulysses |  |  |  |', '| Odyssey | Paused | 2027-01-02 |  |'));
    expect(p).toMatchObject({
      kind: 'send',
      update: [{ id: 'I1', properties: { due: null } }],
      create: [{ title: 'Odyssey', properties: { status: 'Paused', due: '2027-01-02' } }],
      remove: ['I2'],
      allowNewSelectOptions: true,
      newOptions: ['status: Paused'],
    });
  });

  it('merges per cell with the space: its edits stay, the same edit is nothing, different edits keep its value', () => {
    const remote = t(H, '| Dune | Done | 2026-12-01 | 412 |', '| Emma | Done | 2026-01-01 | 300 |', '| Ulysses |  |  |  |');
    const local = t(H, '| Dune | Done | 2026-12-01 | 413 |', '| Emma | Done | 2026-02-02 | 300 |', '| Ulysses | Reading |  |  |');
    const p = plan(local, remote);
    expect(p).toMatchObject({
      kind: 'send',
      update: [
        { id: 'I1', properties: { pages: 413 } },
        { id: 'I3', properties: { status: 'Reading' } },
      ],
    });
    expect(p.kind === 'send' && p.conflicts).toEqual([expect.stringMatching(/^row "Emma", column due .* the space's "2026-01-01" is kept/)]);
  });

  it('keeps a row the space changed when the file removed it, and creates again a row the space removed when the file changed it', () => {
    const remote = t(H, '| Dune | Done | 2026-12-01 | 412 |', '| Ulysses |  |  |  |');
    const p = planCollectionPush({
      name: 'Books',
      base,
      baseIds: ids,
      local: t(H, '| Emma | Done |  | 301 |', '| Ulysses |  |  |  |'),
      remote: { table: remote, ids: ['I1', 'I3'] },
      types,
    });
    expect(p).toMatchObject({ kind: 'send', update: [], remove: [], create: [{ title: 'Emma', properties: { status: 'Done', pages: 301 } }] });
  });

  it('holds back a cell its type cannot hold, sending the rest', () => {
    const p = plan(t(H, '| Dune | Reading | soon | 400 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  |  |'));
    expect(p).toMatchObject({ kind: 'send', update: [{ id: 'I1', properties: { pages: 400 } }] });
    expect(p.kind === 'send' && p.held).toEqual([expect.stringMatching(/^row "Dune", column due .*YYYY-MM-DD/)]);
  });

  it('refuses a changed header (the schema) and asks for the table to be restored', () => {
    const p = plan(t('| title | state | due | pages |', '| Dune | Reading | 2026-12-01 | 412 |'));
    expect(p).toMatchObject({
      kind: 'refused',
      restore: true,
      message: expect.stringMatching(/header of the collection "Books" changed .* changed in the app/),
    });
  });

  it('without recorded ids ties base rows to the space by content', () => {
    const remote = t(H, '| Dune | Done | 2026-12-01 | 412 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  |  |');
    const p = planCollectionPush({
      name: 'Books',
      base,
      local: t(H, '| Dune | Reading | 2026-12-01 | 412 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  | 9 |'),
      remote: { table: remote, ids: ['X1', 'X2', 'X3'] },
      types,
    });
    expect(p).toMatchObject({ kind: 'send', update: [{ id: 'X3', properties: { pages: 9 } }], create: [], remove: [] });
  });
});

it('does not create again a row the space already gained, equal to the new row of the file (a run stopped after its POST)', () => {
  const local = t(
    H,
    '| Dune | Reading | 2026-12-01 | 412 |',
    '| Emma | Done |  | 300 |',
    '| Ulysses |  |  |  |',
    '| Odyssey |  |  | 1 |',
    '| Iliad |  |  | 2 |',
  );
  const remote = t(H, '| Dune | Reading | 2026-12-01 | 412 |', '| Emma | Done |  | 300 |', '| Ulysses |  |  |  |', '| Odyssey |  |  | 1 |');
  const p = planCollectionPush({ name: 'Books', base, baseIds: ids, local, remote: { table: remote, ids: [...ids, 'I4'] }, types });
  expect(p).toMatchObject({ kind: 'send', update: [], remove: [], create: [{ title: 'Iliad', properties: { pages: 2 } }] });
});

describe('alignRows', () => {
  it('pairs equal rows, then edited rows that keep a cell, and leaves the rest unpaired', () => {
    expect(
      alignRows(
        [
          ['a', '1'],
          ['b', '2'],
          ['c', '3'],
        ],
        [
          ['a', '1'],
          ['b', '9'],
          ['x', 'y'],
          ['c', '3'],
        ],
      ),
    ).toEqual([0, 1, 3]);
    expect(
      alignRows(
        [
          ['a', '1'],
          ['b', '2'],
        ],
        [['b', '2']],
      ),
    ).toEqual([undefined, 0]);
  });
});
