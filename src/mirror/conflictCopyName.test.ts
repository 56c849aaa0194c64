import { describe, expect, it } from 'vitest';
import { conflictCopyName, isConflictCopy } from './conflictCopyName.js';

describe('conflictCopyName', () => {
  const at = new Date(2026, 10, 21, 9, 3, 5); // local time, as the user reads it

  it('puts the local date and time before the extension', () => {
    expect(conflictCopyName('Roadmap.md', at)).toBe('Roadmap (conflict 2026-11-21 090305).md');
    expect(conflictCopyName('v1.2 notes.md', at)).toBe('v1.2 notes (conflict 2026-11-21 090305).md');
    expect(conflictCopyName('README', at)).toBe('README (conflict 2026-11-21 090305)');
  });

  it('numbers a second copy made in the same second', () => {
    expect(conflictCopyName('Roadmap.md', at, 1)).toBe('Roadmap (conflict 2026-11-21 090305).md');
    expect(conflictCopyName('Roadmap.md', at, 2)).toBe('Roadmap (conflict 2026-11-21 090305 2).md');
  });

  it('recognises exactly what it produces', () => {
    for (const n of [undefined, 2, 17]) {
      const name = conflictCopyName('Roadmap.md', at, n);
      expect(isConflictCopy(name)).toBe(true);
      expect(isConflictCopy(`Projects/${name}`)).toBe(true);
    }
    expect(isConflictCopy('Roadmap.md')).toBe(false);
    expect(isConflictCopy('Roadmap (conflict 2026-11-21).md')).toBe(false);
    expect(isConflictCopy('Roadmap (conflict 2026-11-21 090305).md/x.md')).toBe(false);
    expect(isConflictCopy('Roadmap (conflict 2026-11-21 090305 0).md')).toBe(false);
  });
});
