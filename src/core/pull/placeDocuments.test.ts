import { describe, expect, it } from 'vitest';
import { placeDocuments } from './placeDocuments.js';
import type { ContainerRead, Placement } from '../remoteTypes.js';

// Projects (P) ⊃ Archive (A) ⊃ Old (O); Personal (X).
const folderParents = new Map<string, string | null>([
  ['P', null],
  ['A', 'P'],
  ['O', 'A'],
  ['X', null],
]);
const inFolder = (id: string): Placement => ({ location: 'folder', folderId: id, dailyNoteDate: null });
const reads = (entries: Record<string, string[]>, dates?: Record<string, string>) =>
  new Map<string, ContainerRead>(
    Object.entries(entries).map(([k, ids]) => [k, k === 'daily_notes' && dates ? { ids, dates: new Map(Object.entries(dates)) } : { ids }]),
  );

describe('placeDocuments', () => {
  it('puts each document in the deepest folder that lists it, whether listings are recursive or direct-only', () => {
    const ids = ['d1', 'd2', 'd3'];
    const recursive = reads({ P: ['d1', 'd2', 'd3'], A: ['d2', 'd3'], O: ['d3'] });
    const direct = reads({ P: ['d1'], A: ['d2'], O: ['d3'] });
    for (const r of [recursive, direct]) {
      const { placements, unplaced } = placeDocuments({ ids, known: new Map(), folderParents, reads: r });
      expect(unplaced).toEqual([]);
      expect(Object.fromEntries(placements)).toEqual({ d1: inFolder('P'), d2: inFolder('A'), d3: inFolder('O') });
    }
  });

  it('keeps a document in a subfolder that was not re-listed when an ancestor lists it recursively', () => {
    const { placements } = placeDocuments({ ids: ['d3', 'new'], known: new Map([['d3', inFolder('O')]]), folderParents, reads: reads({ P: ['d3', 'new'] }) });
    expect(placements.get('d3')).toEqual(inFolder('O'));
    expect(placements.get('new')).toEqual(inFolder('P'));
  });

  it('moves a document out of a re-listed subfolder that no longer lists it', () => {
    const { placements } = placeDocuments({ ids: ['d3'], known: new Map([['d3', inFolder('O')]]), folderParents, reads: reads({ P: ['d3'], O: [] }) });
    expect(placements.get('d3')).toEqual(inFolder('P'));
  });

  it('keeps documents of containers not re-listed, and leaves unplaced the new ones and those that left a re-listed container', () => {
    const known = new Map<string, Placement>([
      ['k', inFolder('X')],
      ['gone', { location: 'trash', folderId: null, dailyNoteDate: null }],
    ]);
    const { placements, unplaced } = placeDocuments({ ids: ['k', 'gone', 'fresh'], known, folderParents, reads: reads({ trash: [] }) });
    expect(placements.get('k')).toEqual(inFolder('X'));
    expect(unplaced.sort()).toEqual(['fresh', 'gone']);
  });

  it('leaves unplaced a known document whose folder no longer exists', () => {
    const { unplaced } = placeDocuments({ ids: ['d'], known: new Map([['d', inFolder('DELETED')]]), folderParents, reads: new Map() });
    expect(unplaced).toEqual(['d']);
  });

  it('takes built-in locations and daily-note dates from their listings', () => {
    const { placements } = placeDocuments({
      ids: ['t', 'n'],
      known: new Map(),
      folderParents,
      reads: reads({ templates: ['t'], daily_notes: ['n'] }, { n: '2026-09-07' }),
    });
    expect(placements.get('t')).toEqual({ location: 'templates', folderId: null, dailyNoteDate: null });
    expect(placements.get('n')).toEqual({ location: 'daily_notes', folderId: null, dailyNoteDate: '2026-09-07' });
  });
});
