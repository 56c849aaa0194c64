import { describe, expect, it } from 'vitest';
import { freeSibling, planAdoption, type MirrorFile, type SpaceFile } from './adoption.js';

const doc = (path: string, docId: string, hash = `h:${path}`): SpaceFile => ({ path, docId, hash });
const file = (path: string, hash = `h:${path}`): SpaceFile => ({ path, hash });
const md = (path: string, claim: string | null, hash = `h:${path}`): MirrorFile => ({ path, claim, hash });
const bin = (path: string, hash = `h:${path}`): MirrorFile => ({ path, hash });

describe('adopting a mirror without a journal', () => {
  it('a file equal to the space’s is in step; one that differs is a conflict; one the mirror lacks is written', () => {
    const plan = planAdoption(
      [doc('A.md', 'a'), doc('B.md', 'b'), doc('C.md', 'c'), file('A.assets/x.png'), file('Tasks/Inbox.md')],
      [md('A.md', 'a'), md('B.md', 'b', 'edited here'), bin('A.assets/x.png', 'other bytes'), bin('Tasks/Inbox.md')],
    );
    expect(plan.steps).toEqual([
      { kind: 'conflict', path: 'A.assets/x.png', from: 'A.assets/x.png' },
      { kind: 'conflict', path: 'B.md', from: 'B.md', docId: 'b' },
      { kind: 'same', path: 'A.md' },
      { kind: 'write', path: 'C.md' },
      { kind: 'same', path: 'Tasks/Inbox.md' },
    ]);
    expect(plan.orphans).toEqual([]);
    expect(plan.restore).toBe(false);
  });

  it('a document’s file found elsewhere by its id goes back to the space’s place: moved when equal, a conflict copy there when not', () => {
    const plan = planAdoption([doc('A.md', 'a'), doc('B.md', 'b')], [md('Elsewhere/A.md', 'a', 'h:A.md'), md('Other/B.md', 'b', 'changed')]);
    expect(plan.steps).toEqual([
      { kind: 'conflict', path: 'B.md', from: 'Other/B.md', docId: 'b' },
      { kind: 'moved', path: 'A.md', from: 'Elsewhere/A.md', docId: 'a' },
    ]);
    // A link typed to where they were still names them.
    expect(plan.formerPaths).toEqual({ 'Other/B.md': 'B.md', 'Elsewhere/A.md': 'A.md' });
  });

  it('the files of a moved document’s .assets folder go back with it when their bytes are the space’s; others stay', () => {
    const plan = planAdoption(
      [doc('Notes/A.md', 'a'), file('Notes/A.assets/x.png'), file('Notes/A.assets/board.excalidraw'), file('Notes/A.assets/y.png')],
      [
        md('B.md', 'a', 'h:Notes/A.md'),
        bin('B.assets/x.png', 'h:Notes/A.assets/x.png'),
        bin('B.assets/board.excalidraw', 'edited here'),
        bin('B.assets/mine.png'),
      ],
    );
    expect(plan.steps).toEqual([
      { kind: 'write', path: 'Notes/A.assets/board.excalidraw' },
      { kind: 'moved', path: 'Notes/A.assets/x.png', from: 'B.assets/x.png' },
      { kind: 'write', path: 'Notes/A.assets/y.png' },
      { kind: 'moved', path: 'Notes/A.md', from: 'B.md', docId: 'a' },
    ]);
  });

  it('another document’s file at a document’s place steps aside under a free name and is handled as that document’s', () => {
    const plan = planAdoption([doc('A.md', 'a'), doc('B.md', 'b')], [md('A.md', 'b', 'h:B.md'), md('A 2.md', null)]);
    expect(plan.steps).toEqual([
      { kind: 'aside', from: 'A.md', to: 'A 3.md' },
      { kind: 'write', path: 'A.md' },
      { kind: 'moved', path: 'B.md', from: 'A 3.md', docId: 'b' },
    ]);
  });

  it('a file naming a document the space does not have is an orphan (held back), unless the space has none of the mirror’s documents (a restore)', () => {
    const same = planAdoption([doc('A.md', 'a')], [md('A.md', 'a'), md('Gone.md', 'gone'), md('New note.md', null)]);
    expect(same.orphans).toEqual([{ path: 'Gone.md', docId: 'gone' }]);
    expect(same.restore).toBe(false);
    const restore = planAdoption([file('Tasks/Inbox.md')], [md('A.md', 'a'), md('Gone.md', 'gone')]);
    expect(restore.restore).toBe(true);
    expect(restore.orphans).toEqual([]);
    expect(restore.steps).toEqual([{ kind: 'write', path: 'Tasks/Inbox.md' }]);
  });

  it('a file naming no document at a document’s place is taken as that document’s file (a conflict, never a second document)', () => {
    const plan = planAdoption([doc('A.md', 'a')], [md('A.md', null, 'no front matter')]);
    expect(plan.steps).toEqual([{ kind: 'conflict', path: 'A.md', from: 'A.md', docId: 'a' }]);
  });

  it('a file that differs from the space’s only in the signatures of its asset links is refreshed, not a conflict', () => {
    const plan = planAdoption([{ ...doc('A.md', 'a', 'new signature'), alike: 'k' }], [{ ...md('A.md', 'a', 'old signature'), alike: 'k' }]);
    expect(plan.steps).toEqual([{ kind: 'refresh', path: 'A.md' }]);
  });

  it('freeSibling numbers the stem, keeping the extension', () => {
    expect(freeSibling('N/Plan.md', new Set(['N/Plan 2.md']))).toBe('N/Plan 3.md');
    expect(freeSibling('x.png', new Set())).toBe('x 2.png');
  });
});
