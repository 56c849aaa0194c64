import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { createIgnore, globToRegExp } from './createIgnore.js';

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

describe('globToRegExp', () => {
  it.each([
    ['*.md', 'a.md', true],
    ['*.md', 'dir/a.md', false],
    ['*.md', '.md', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['a?c', 'ac', false],
    ['**', 'a/b/c.md', true],
    ['**/x.md', 'x.md', true],
    ['**/x.md', 'a/b/x.md', true],
    ['**/x.md', 'a/bx.md', false],
    ['a/**', 'a/b', true],
    ['a/**', 'a/b/c', true],
    ['a/**', 'ab/c', false],
    ['a/**/z', 'a/z', true],
    ['a/**/z', 'a/b/c/z', true],
    ['a/**/z', 'a/bz', false],
    ['a**b', 'axxb', true],
    ['a**b', 'a/b', false],
    ['[abc].md', 'b.md', true],
    ['[abc].md', 'd.md', false],
    ['[a-c]x', 'bx', true],
    ['[!a-c]x', 'bx', false],
    ['[!a-c]x', 'dx', true],
    ['[^a-c]x', 'dx', true],
    ['[!a]', '/', false],
    ['[]]', ']', true],
    ['[a', '[a', true],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
    ['file (1).md', 'file (1).md', true],
    ['a+b.md', 'a+b.md', true],
    ['a+b.md', 'aab.md', false],
    ['$^.md', '$^.md', true],
    ['Ärger*', 'Ärger 2.md', true],
  ])('%s against %s → %s', (glob, p, expected) => {
    expect(globToRegExp(glob).test(p)).toBe(expected);
  });

  it('throws on an impossible class range (reported by createIgnore)', () => {
    expect(() => globToRegExp('[z-a]')).toThrow();
  });
});
