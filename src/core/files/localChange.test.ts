// The local-change rule the push's scan, the pull and `status` share.
import { describe, expect, it } from 'vitest';
import { changeOfRecordedFile, claimOf, deletionHeldMessage, goneAreDeleted, movedCreateOf, pairMoved, pullChangeOf, readingOf } from './localChange.js';

const record = { id: 'D1', fileHash: 'base' };
const known = (id: string) => id === 'D1' || id === 'D2';
const text = (id: string, body = 'x') => `---\nid: ${id}\n---\n${body}\n`;

describe('changeOfRecordedFile', () => {
  it('decides by content against the base: same bytes unchanged, other bytes edited, no file missing', () => {
    expect(changeOfRecordedFile(record, { hash: 'base', frontMatterOk: true, claim: 'D1' }, known)).toBe('unchanged');
    expect(changeOfRecordedFile(record, { hash: 'other', frontMatterOk: true, claim: 'D1' }, known)).toBe('edited');
    expect(changeOfRecordedFile(record, { hash: 'other', frontMatterOk: true, claim: undefined }, known)).toBe('edited');
    expect(changeOfRecordedFile(record, null, known)).toBe('missing');
  });

  it('holds back a file that is not UTF-8 and names a broken front matter, neither edited nor gone', () => {
    expect(changeOfRecordedFile(record, { hash: 'other', undecodable: true }, known)).toBe('heldBack');
    expect(changeOfRecordedFile(record, { hash: 'other', frontMatterOk: false, claim: undefined }, known)).toBe('unparsable');
  });

  it('a file naming another known document is that one moved here; an unknown id is an edit', () => {
    expect(changeOfRecordedFile(record, { hash: 'other', frontMatterOk: true, claim: 'D2' }, known)).toBe('elsewhere');
    expect(changeOfRecordedFile(record, { hash: 'other', frontMatterOk: true, claim: 'D9' }, known)).toBe('edited');
  });

  it("a document with no file recorded is the pull's, unless a file there names it (a stopped pull wrote it)", () => {
    const unwritten = { id: 'D1', fileHash: null };
    expect(changeOfRecordedFile(unwritten, null, known)).toBe('unchanged');
    expect(changeOfRecordedFile(unwritten, { hash: 'h', frontMatterOk: true, claim: undefined }, known)).toBe('unchanged');
    expect(changeOfRecordedFile(unwritten, { hash: 'h', undecodable: true }, known)).toBe('unchanged');
    expect(changeOfRecordedFile(unwritten, { hash: 'h', frontMatterOk: true, claim: 'D1' }, known)).toBe('edited');
  });

  it('the pull leaves every differing file alone and sees a gone one as missing', () => {
    expect(pullChangeOf('unchanged')).toBeNull();
    expect(pullChangeOf('missing')).toBe('missing');
    for (const c of ['edited', 'heldBack', 'unparsable', 'elsewhere'] as const) expect(pullChangeOf(c)).toBe('edited');
  });
});

describe('readingOf and claimOf', () => {
  it('parses the front matter only when the bytes are not the base, and an empty id names nothing', () => {
    expect(readingOf('base', '---\nid: [broken\n---\n', 'base')).toEqual({ hash: 'base', frontMatterOk: true, claim: undefined });
    expect(readingOf('h', '---\nid: [broken\n---\n', 'base')).toMatchObject({ hash: 'h', frontMatterOk: false });
    expect(readingOf('h', text('D2'), 'base')).toEqual({ hash: 'h', frontMatterOk: true, claim: 'D2' });
    expect(readingOf('h', text("''"), null)).toEqual({ hash: 'h', frontMatterOk: true, claim: undefined });
    expect(readingOf('h', null, 'base')).toEqual({ hash: 'h', undecodable: true });
    expect(claimOf({ ok: false, problem: 'p' })).toBeUndefined();
  });
});

describe('pairMoved', () => {
  const gone = new Map([['D1', { path: 'Notes/Plan.md' }]]);
  it('a file naming a gone document is it moved, the likeliest first; the others and the unclaimed are new', () => {
    const files = [
      { path: 'Archive/Other.md', claim: 'D1' },
      { path: 'Archive/Plan.md', claim: 'D1' },
      { path: 'Notes/Copy.md', claim: 'D1' },
      { path: 'Fresh.md', claim: undefined },
      { path: 'Named.md', claim: 'D7' },
    ];
    const r = pairMoved(gone, files, (f) => f.claim);
    expect(r.moved).toEqual([{ id: 'D1', file: { path: 'Archive/Plan.md', claim: 'D1' } }]);
    expect(r.added.map((f) => f.path).sort()).toEqual(['Archive/Other.md', 'Fresh.md', 'Named.md', 'Notes/Copy.md']);
  });

  it('gone documents are deleted only when no unreadable file could be one of them moved', () => {
    expect(goneAreDeleted(2, 0)).toBe(true);
    expect(goneAreDeleted(0, 3)).toBe(true);
    expect(goneAreDeleted(2, 1)).toBe(false);
  });

  it('says why a deletion waits, and what lets it go', () => {
    expect(deletionHeldMessage('A.md', ['x.md', 'y.md'], ['Work/Meetings'])).toBe(
      '"A.md" is gone, but x.md, y.md cannot be read and one may be it, moved, and the folder "Work/Meetings" is a symbolic link it may have been moved into: its document is not moved to the trash until those files are saved as UTF-8 or removed and the link is replaced with the real folder.',
    );
    expect(deletionHeldMessage('A.md', [], ['P', 'Q'])).toBe(
      '"A.md" is gone, but the folders "P", "Q" are symbolic links it may have been moved into: its document is not moved to the trash until the links are replaced with the real folders.',
    );
  });
});

describe('movedCreateOf', () => {
  const text = (path: string, hash: string, claim?: string) => ({ path, reading: { hash, frontMatterOk: true, claim } });
  const was = { path: 'Projects/Fresh.md', hash: 'h1' };
  it('the one unclaimed file holding the bytes sent, whatever its name', () => {
    expect(movedCreateOf(was, [text('Home/Other.md', 'h2'), text('Home/Fresher.md', 'h1'), text('Home/Named.md', 'h1', 'D1')])).toBe('Home/Fresher.md');
  });
  it('else the one unclaimed file of the same name (edited as it moved)', () => {
    expect(movedCreateOf(was, [text('Home/Fresh.md', 'h9'), text('Home/Other.md', 'h2')])).toBe('Home/Fresh.md');
    expect(movedCreateOf({ path: was.path, hash: null }, [text('Home/Fresh.md', 'h1')])).toBe('Home/Fresh.md');
  });
  it('none when several could be it, or none is unclaimed and readable', () => {
    expect(movedCreateOf(was, [text('A/Copy.md', 'h1'), text('B/Copy.md', 'h1')])).toBeNull();
    expect(movedCreateOf(was, [text('A/Fresh.md', 'h8'), text('B/Fresh.md', 'h9')])).toBeNull();
    expect(movedCreateOf(was, [{ path: 'A/Fresh.md', reading: { hash: 'h1', undecodable: true } }, text('B/Fresh.md', 'h1', 'D2')])).toBeNull();
  });
});
