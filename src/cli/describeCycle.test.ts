import { describe, expect, it } from 'vitest';
import { emptyReport, type Change, type CycleReport, type Problem } from '../core/report/cycleReport.js';
import { describeReport, describeOutage } from './describeCycle.js';
import { nameList, duration } from './format.js';
import { SpacesyncError } from '../errors.js';

const report = (changes: Change[], more: Partial<CycleReport> = {}): CycleReport => ({ ...emptyReport('cycle', ''), requests: 3, changes, ...more });
const doc = (side: Change['side'], action: Change['action'], title: string, more: Partial<Change> = {}): Change => ({
  kind: 'document',
  side,
  action,
  path: `Notes/${title}.md`,
  title,
  ...more,
});
const none = { appeared: [], cleared: [] };

describe('the lines a cycle prints', () => {
  it('names up to three, then counts', () => {
    expect(nameList(['a', 'b'])).toBe('a, b');
    expect(nameList(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });

  it('a push names each document by title with what happened to it, and a new folder as a folder', () => {
    const r = report(
      [
        doc('local', 'renamed', 'Plans', { from: 'Roadmap' }),
        doc('local', 'updated', 'Inbox'),
        { kind: 'folder', side: 'local', action: 'created', path: 'Work/Ideas', title: 'Ideas' },
      ],
      { requests: 2, blocksWritten: 1 },
    );
    expect(describeReport(r, none, null).out).toEqual([
      'Pushed: Plans (renamed from "Roadmap"), Inbox (edited), folder Work/Ideas (new); 2 requests, 1 block written.',
    ]);
  });

  it('a pull says new, updated, renamed (with the old name), moved (from where), and the space’s trash of a first pull as it is', () => {
    const r = report([
      doc('remote', 'created', 'A'),
      doc('remote', 'updated', 'B'),
      doc('remote', 'renamed', 'C', { from: 'Old C' }),
      doc('remote', 'created', 'D', { path: 'Trash/D.md', detail: "in the space's trash" }),
    ]);
    expect(describeReport(r, none, null).out).toEqual([
      `Pulled: 1 new, 1 updated, 1 renamed, 1 in the space's trash (3 requests): A (new), B (updated), C (renamed from "Old C"), D (in the space's trash).`,
    ]);
    expect(describeReport(report([doc('remote', 'deleted', 'Recipes', { detail: 'kept in Trash/' })]), none, null).out).toEqual([
      'Pulled: 1 deleted, kept in Trash/ (3 requests): Recipes.',
    ]);
  });

  it('every kind of content has its line: tasks by their text, uploads, downloads, whiteboards, tables', () => {
    const r = report([
      { kind: 'task', side: 'local', action: 'created', path: 'Tasks/Inbox.md', title: 'buy milk' },
      { kind: 'task', side: 'remote', action: 'completed', path: 'Tasks/Inbox.md', title: 'pay rent' },
      { kind: 'asset', side: 'local', action: 'uploaded', path: 'Groceries.assets/red.png', title: 'red.png' },
      { kind: 'asset', side: 'remote', action: 'downloaded', path: 'Trip.assets/tram.png', title: 'tram.png' },
      { kind: 'scene', side: 'local', action: 'updated', path: 'Plan.assets/board.excalidraw', title: 'board', detail: '2 elements' },
      { kind: 'table', side: 'local', action: 'updated', path: 'Tracker.md', title: 'Tasks', detail: '1 row changed' },
    ]);
    expect(describeReport(r, none, null).out).toEqual([
      'Inbox tasks sent: "buy milk" (new).',
      'Inbox tasks from the space: "pay rent" (done).',
      'Uploaded: red.png (Groceries.assets).',
      'Downloaded: 1 asset: Trip.assets/tram.png.',
      'Whiteboards sent: board (2 elements).',
      'Tables sent: Tasks in Tracker.md (1 row changed).',
    ]);
  });

  it('a problem is said when it appears and when it clears, not while it stands; nothing changed says the idle line', () => {
    const held: Problem = { key: 'held:wipe:A.md', path: 'A.md', severity: 'held', message: '"A.md" would delete its document.' };
    expect(describeReport(report([], { problems: [held] }), { appeared: [held], cleared: [] }, null)).toEqual({
      out: [],
      err: ['spacesync: held back: "A.md" would delete its document.'],
    });
    expect(describeReport(report([], { problems: [held] }), none, null)).toEqual({ out: [], err: [] });
    expect(describeReport(report([]), { appeared: [], cleared: [held] }, null).out).toEqual(['spacesync: "A.md" is no longer held back.']);
    expect(describeReport(report([]), none, 'In step with the space: nothing to pull ({requests}).').out).toEqual([
      'In step with the space: nothing to pull (3 requests).',
    ]);
  });
});

const error = new SpacesyncError('network', 'Could not reach the service at example.test. Check the network connection.');
const since = '2026-01-01T10:00:00.000Z';

describe('the lines of an outage', () => {
  it('says when it starts, with what failed, on stderr; the failed looks after it say nothing', () => {
    expect(describeOutage({ kind: 'started', since, error })).toEqual({
      stream: 'err',
      line: 'spacesync: the space is unreachable: retrying every few seconds; edits are kept and sent when it is back. Could not reach the service at example.test. Check the network connection.',
    });
    expect(describeOutage({ kind: 'failed', since, error })).toBeNull();
  });

  it('says when it ends, how long it lasted and the edits that went out', () => {
    expect(describeOutage({ kind: 'ended', since, downMs: 130_000, sent: 2 })).toEqual({
      stream: 'out',
      line: 'spacesync: the space is reachable again after 2 min 10 s; 2 edits sent.',
    });
    expect(describeOutage({ kind: 'ended', since, downMs: 1_000, sent: 1 })!.line).toBe('spacesync: the space is reachable again after 1 s; 1 edit sent.');
    expect(describeOutage({ kind: 'ended', since, downMs: 42_000, sent: 0 })!.line).toBe('spacesync: the space is reachable again after 42 s.');
  });
});

describe('duration', () => {
  it.each([
    [0, '0 s'],
    [45_400, '45 s'],
    [120_000, '2 min'],
    [130_000, '2 min 10 s'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
    [7_170_000, '2 h'],
  ])('%d ms is %s', (ms, words) => expect(duration(ms)).toBe(words));
});
