import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type Journal } from '../../journal/index.js';
import { recordRefusal } from '../../journal/daemonStatus.js';
import { deletesApproved, deletesKey, dropStaleApprovals, fileApproved, readApprovals, recordApprovals, useApprovals } from './approvals.js';
import { recordHeldBack } from './heldBackState.js';

let j: Journal;
beforeEach(() => {
  j = openJournal(':memory:');
});
afterEach(() => j.close());

const at = '2026-11-27T10:00:00.000Z';
const wipe = (path: string, hash: string) => ({ path, reason: 'wipe' as const, message: `"${path}" holds no blocks any more.`, hash });

describe('approvals', () => {
  it('a set of deletes is one key in any order; another set is another key', () => {
    expect(deletesKey(['b.md', 'a.md'])).toBe(deletesKey(['a.md', 'b.md']));
    expect(deletesKey(['a.md', 'b.md'])).not.toBe(deletesKey(['a.md', 'b.md', 'c.md']));
  });

  it('approve a file by its hash and the deletes by their set and reason; used once', () => {
    recordApprovals(j, {
      files: [{ path: 'a.md', hash: 'H1', at }],
      deletes: { reason: 'mass_delete_remote', key: deletesKey(['x.md', 'y.md']), count: 2, at },
    });
    const a = readApprovals(j);
    expect(fileApproved(a, 'a.md', 'H1')).toBe(true);
    expect(fileApproved(a, 'a.md', 'H2')).toBe(false);
    expect(deletesApproved(a, 'mass_delete_remote', ['y.md', 'x.md'])).toBe(true);
    expect(deletesApproved(a, 'mass_delete_remote', ['x.md'])).toBe(false);
    expect(deletesApproved(a, 'root_empty', ['x.md', 'y.md'])).toBe(false);
    useApprovals(j, { files: ['a.md'] });
    expect(readApprovals(j).files).toEqual([]);
    useApprovals(j, { deletes: true });
    expect(j.getState('approvals')).toBeUndefined();
  });

  it('drops what no longer waits as approved: a file held back with other bytes, another set of deletes', () => {
    recordHeldBack(j, [wipe('a.md', 'H1'), wipe('b.md', 'H1')]);
    recordRefusal(j, { at, reason: 'mass_delete_remote', message: 'refused', deletes: ['x.md', 'y.md'], key: deletesKey(['x.md', 'y.md']) });
    recordApprovals(j, {
      files: [
        { path: 'a.md', hash: 'H1', at },
        { path: 'b.md', hash: 'H1', at },
      ],
      deletes: { reason: 'mass_delete_remote', key: deletesKey(['x.md', 'y.md']), count: 2, at },
    });
    dropStaleApprovals(j);
    expect(readApprovals(j).files.map((f) => f.path)).toEqual(['a.md', 'b.md']);
    expect(readApprovals(j).deletes).not.toBeNull();

    recordHeldBack(j, [wipe('a.md', 'H1'), wipe('b.md', 'H2')]);
    recordRefusal(j, { at, reason: 'mass_delete_remote', message: 'refused', deletes: ['x.md', 'y.md', 'z.md'], key: deletesKey(['x.md', 'y.md', 'z.md']) });
    dropStaleApprovals(j);
    expect(readApprovals(j)).toEqual({ files: [{ path: 'a.md', hash: 'H1', at }], deletes: null });
    recordHeldBack(j, []);
    dropStaleApprovals(j);
    expect(j.getState('approvals')).toBeUndefined();
  });
});
