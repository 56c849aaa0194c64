import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { createIgnore } from './createIgnore.js';

describe('createIgnore: built-ins', () => {
  const ignore = createIgnore();
  it.each([
    '.spacesync/journal.db',
    '.spacesync',
    '.git/config',
    'Projects/.obsidian/x.md',
    '.DS_Store',
    'A/.DS_Store',
    'Thumbs.db',
    'a/desktop.ini',
    '.Roadmap.md.swp',
    'Roadmap.md.swp',
    'Roadmap.md.swo',
    'Roadmap.md~',
    '4913',
    'A/5036',
    '.#Roadmap.md',
    '#Roadmap.md#',
    'Roadmap.md___jb_tmp___',
    'Roadmap.md___jb_old___',
    'x.tmp',
    '.Roadmap.md.spacesync-0a1b2c.tmp',
    'Roadmap (conflict 2026-11-21 093005).md',
    'P/Roadmap (conflict 2026-11-21 093005 2).md',
  ])('ignores %s', (p) => expect(ignore(p)).toBe(true));

  it.each(['Roadmap.md', 'Projects/Roadmap.md', 'Daily Notes/2026-11-21.md', '4914', '2026.md', 'a#b#.md', 'x~y.md', 'Roadmap (conflict).md'])(
    'keeps %s',
    (p) => expect(ignore(p)).toBe(false),
  );
});

describe('createIgnore: user patterns', () => {
  const ignore = createIgnore(['*.pdf', 'drafts', 'Archive/2019/**', 'build/', '/top.md', 'notes/*.bak.md']);
  it.each([
    ['a.pdf', false, true],
    ['x/y/a.pdf', false, true],
    ['drafts', true, true],
    ['drafts/idea.md', false, true],
    ['Projects/drafts/idea.md', false, true],
    ['Projects/drafts.md', false, false],
    ['Archive/2019/Jan.md', false, true],
    ['Archive/2020/Jan.md', false, false],
    ['x/Archive/2019/Jan.md', false, false],
    ['build', true, true],
    ['build/out.md', false, true],
    ['build', false, false],
    ['top.md', false, true],
    ['sub/top.md', false, false],
    ['notes/a.bak.md', false, true],
    ['notes/deep/a.bak.md', false, false],
  ])('%s (dir: %s) → %s', (p, isDir, expected) => expect(ignore(p, isDir)).toBe(expected));

  it('is case-sensitive', () => {
    expect(createIgnore(['Drafts'])('drafts/a.md')).toBe(false);
  });

  it.each([[''], ['   '], ['!keep.md'], ['[z-a].md'], ['/']])('refuses the pattern %j with config_invalid', (pattern) => {
    try {
      createIgnore([pattern]);
      expect.unreachable();
    } catch (e) {
      expect(isSpacesyncError(e, 'config_invalid')).toBe(true);
      expect((e as Error).message).toContain('"ignore" list');
    }
  });
});
