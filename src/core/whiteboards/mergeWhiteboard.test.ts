import { describe, expect, it } from 'vitest';
import { changedProperties, mergeWhiteboard } from './mergeWhiteboard.js';
import type { WhiteboardElement } from './sceneOfWhiteboard.js';

const a: WhiteboardElement = { id: 'a', type: 'rectangle', x: 0, y: 0, width: 10, height: 10, text: 'A' };
const b: WhiteboardElement = { id: 'b', type: 'ellipse', x: 50, y: 0, width: 10, height: 10, text: '' };
const base = [a, b];

describe('mergeWhiteboard', () => {
  it('sends nothing when neither side changed', () => {
    expect(mergeWhiteboard(base, base, base, false)).toEqual({ elements: base, put: [], post: [], remove: [], conflicts: [] });
  });

  it('sends only the properties the file changed', () => {
    const m = mergeWhiteboard(base, [{ ...a, x: 5, y: 6 }, b], base, false);
    expect(m.put).toEqual([{ id: 'a', x: 5, y: 6 }]);
    expect(m.elements).toEqual([{ ...a, x: 5, y: 6 }, b]);
  });

  it('posts new elements and deletes removed ones', () => {
    const c = { id: 'c', type: 'text', x: 1, y: 1, width: 1, height: 1, text: 'new' };
    const m = mergeWhiteboard(base, [a, c], base, false);
    expect(m).toMatchObject({ put: [], post: [c], remove: ['b'], elements: [a, c] });
  });

  it('takes the service’s change of an element the file left alone, and merges changes of different elements', () => {
    const m = mergeWhiteboard(base, [{ ...a, x: 5 }, b], [a, { ...b, width: 99 }], false);
    expect(m.put).toEqual([{ id: 'a', x: 5 }]);
    expect(m.elements).toEqual([
      { ...a, x: 5 },
      { ...b, width: 99 },
    ]);
    expect(m.conflicts).toEqual([]);
  });

  it('gives an element changed on both sides to the later edit; the other side’s version is lost to the history', () => {
    const local = [{ ...a, x: 5 }, b];
    const remote = [{ ...a, text: 'Remote' }, b];
    const remoteWins = mergeWhiteboard(base, local, remote, false);
    expect(remoteWins).toMatchObject({ put: [], elements: remote, conflicts: [{ id: 'a', lost: 'local' }] });
    const localWins = mergeWhiteboard(base, local, remote, true);
    expect(localWins.put).toEqual([{ id: 'a', x: 5, text: 'A' }]);
    expect(localWins.elements).toEqual(local);
    expect(localWins.conflicts).toEqual([{ id: 'a', lost: 'remote' }]);
  });

  it('lets an edit beat a delete on either side', () => {
    const keptRemote = mergeWhiteboard(base, [b], [{ ...a, x: 9 }, b], false);
    expect(keptRemote).toMatchObject({ remove: [], elements: [{ ...a, x: 9 }, b] });
    const recreated = mergeWhiteboard(base, [{ ...a, x: 9 }, b], [b], false);
    expect(recreated).toMatchObject({ post: [{ ...a, x: 9 }], elements: [b, { ...a, x: 9 }] });
  });

  it('without a base, an element both sides hold alike is nothing to send', () => {
    expect(mergeWhiteboard(null, base, base, true)).toMatchObject({ put: [], post: [], remove: [], conflicts: [] });
  });

  it('sends a property the file removed as null (text as empty)', () => {
    expect(changedProperties({ id: 'a', text: 'x', color: 'red' }, { id: 'a' })).toEqual({ id: 'a', text: '', color: null });
  });
});
