import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { frontMatterBlock, parseFrontMatter, updateFrontMatter } from './frontMatter.js';

const update = (text: string | undefined, want: { id: string; title?: string }) => {
  const r = updateFrontMatter(text, want);
  if (!r.ok) throw new Error(r.problem);
  return r.text;
};

describe('parseFrontMatter', () => {
  it('reads id, title and the user keys', () => {
    expect(parseFrontMatter('id: ABC-1\ntitle: "a/b"\ntags: [x, y]\n')).toEqual({ ok: true, id: 'ABC-1', title: 'a/b', user: { tags: ['x', 'y'] } });
  });

  it('reads ids exactly as written, even when they look like numbers', () => {
    expect(parseFrontMatter('id: 0012\n')).toMatchObject({ ok: true, id: '0012' });
    expect(parseFrontMatter('id: true\ntitle: null\n')).toMatchObject({ ok: true, id: 'true', title: 'null' });
  });

  it('accepts no front matter or an empty one', () => {
    expect(parseFrontMatter(undefined)).toEqual({ ok: true, user: {} });
    expect(parseFrontMatter('')).toEqual({ ok: true, user: {} });
    expect(parseFrontMatter('# only a comment\n')).toEqual({ ok: true, user: {} });
  });

  it('describes broken YAML with where and what to do', () => {
    const r = parseFrontMatter('id: [unclosed\ntitle: x\n', 'Projects/Roadmap.md');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem).toContain('Projects/Roadmap.md');
      expect(r.problem).toContain('not valid YAML');
      expect(r.problem).toContain('Fix it');
    }
  });

  it('refuses a front matter that is not a mapping, duplicate keys, and a structured id', () => {
    expect(parseFrontMatter('- a\n- b\n').ok).toBe(false);
    expect(parseFrontMatter('id: a\nid: b\n').ok).toBe(false);
    const r = parseFrontMatter('id:\n  nested: 1\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toContain('"id"');
  });
});

describe('updateFrontMatter', () => {
  it('writes id first and title only when asked', () => {
    expect(update(undefined, { id: 'D1' })).toBe('id: D1\n');
    expect(update(undefined, { id: 'D1', title: 'a/b: c' })).toBe('id: D1\ntitle: "a/b: c"\n');
    expect(frontMatterBlock(update(undefined, { id: '12345' }))).toBe('---\nid: "12345"\n---\n');
  });

  it('gives the same bytes back when nothing changes', () => {
    const text = '# notes\nid:   D1   # mine\ntags: [ a,b ]\n';
    expect(update(text, { id: 'D1' })).toBe(text);
  });

  it('changes only the id value and keeps every other byte', () => {
    const text = '# notes\nid: OLD # mine\ntags: [ a,b ]\nbody: |\n  keep\n    this\n';
    expect(update(text, { id: 'NEW' })).toBe('# notes\nid: NEW # mine\ntags: [ a,b ]\nbody: |\n  keep\n    this\n');
  });

  it('adds a title after the id, and removes it again, byte-faithfully', () => {
    const text = 'tags: [ a,b ]   # x\nid: D1\nauthor: me\n';
    const withTitle = update(text, { id: 'D1', title: 'What? Now' });
    expect(withTitle).toBe('tags: [ a,b ]   # x\nid: D1\ntitle: What? Now\nauthor: me\n');
    expect(update(withTitle, { id: 'D1' })).toBe(text);
  });

  it('adds an id to user front matter that has none', () => {
    expect(update('author: me\n', { id: 'D1' })).toBe('id: D1\nauthor: me\n');
    expect(update('# just a comment', { id: 'D1' })).toBe('# just a comment\nid: D1\n');
  });

  it('fills an empty title value', () => {
    expect(update('id: D1\ntitle:\nx: 1\n', { id: 'D1', title: 'T' })).toBe('id: D1\ntitle: T\nx: 1\n');
  });

  it('keeps CRLF line ends', () => {
    expect(update('a: 1\r\n', { id: 'D1' })).toBe('id: D1\r\na: 1\r\n');
  });

  it('falls back to the YAML document for a flow mapping and multi-line titles, keeping the user keys', () => {
    const flow = update('{a: 1, id: X}', { id: 'Y' });
    expect(parseFrontMatter(flow)).toEqual({ ok: true, id: 'Y', user: { a: 1 } });
    const multi = update('id: D\nkeep: 1\n', { id: 'D', title: 'two\nlines' });
    expect(parseFrontMatter(multi)).toEqual({ ok: true, id: 'D', title: 'two\nlines', user: { keep: 1 } });
  });

  it('never overwrites broken YAML', () => {
    const r = updateFrontMatter('id: [x\n', { id: 'D1' });
    expect(r.ok).toBe(false);
  });

  it('property: what it writes reads back as written, with the user keys unchanged', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((k) => k !== 'id' && k !== 'title');
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.array(fc.integer(), { maxLength: 3 }))),
        fc.string({ maxLength: 20 }),
        fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
        (user, id, title) => {
          const start = Object.keys(user).length
            ? update(undefined, { id: 'seed' }) +
              Object.entries(user)
                .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
                .join('')
            : undefined;
          const text = update(start, { id, title });
          expect(parseFrontMatter(text)).toEqual({ ok: true, id, ...(title === undefined ? {} : { title }), user });
          expect(update(text, { id, title })).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
