import { describe, expect, it } from 'vitest';
import { globToRegExp } from './globToRegExp.js';

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
