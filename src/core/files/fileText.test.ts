import { describe, expect, it } from 'vitest';
import type { Block } from '../../dialect/index.js';
import { bodyOf, composeFile, frontMatterParts, withFrontMatter } from './fileText.js';

describe('file text', () => {
  const root: Block = { id: 'D', type: 'page', markdown: 'T', content: [{ id: 'a', type: 'text', markdown: 'hello' }] };

  it('composes front matter and the body, and an empty document as front matter alone', () => {
    expect(composeFile(root, { id: 'D' })).toBe('---\nid: D\n---\nhello\n');
    expect(composeFile({ ...root, content: [] }, { id: 'D', title: 'a: b' })).toBe('---\nid: D\ntitle: "a: b"\n---\n');
  });

  it('splits front matter into fences and YAML, also empty and CRLF ones', () => {
    expect(frontMatterParts('---\nid: D\n---\nbody')).toEqual({ open: '---\n', inner: 'id: D\n', close: '---\n', end: 14 });
    expect(frontMatterParts('---\n---\n')).toMatchObject({ inner: '', close: '---\n' });
    expect(frontMatterParts('---\r\nid: D\r\n---\r\nx')).toMatchObject({ open: '---\r\n', inner: 'id: D\r\n', close: '---\r\n' });
    expect(frontMatterParts('no front matter')).toBeNull();
    expect(bodyOf('---\nid: D\n---\nbody')).toBe('body');
  });

  it('sets id and title keeping every other byte, and adds front matter to a file without', () => {
    const text = '---\r\nid: D\r\ntags: [x]   # mine\r\n---\r\nbody\r\n';
    expect(withFrontMatter(text, { id: 'D' }, 'f.md')).toEqual({ ok: true, text });
    expect(withFrontMatter(text, { id: 'D', title: 'T?' }, 'f.md')).toEqual({
      ok: true,
      text: '---\r\nid: D\r\ntitle: T?\r\ntags: [x]   # mine\r\n---\r\nbody\r\n',
    });
    expect(withFrontMatter('body\n', { id: 'D' }, 'f.md')).toEqual({ ok: true, text: '---\nid: D\n---\nbody\n' });
  });

  it('reports front matter it cannot read instead of rewriting it', () => {
    const r = withFrontMatter('---\nid: [broken\n---\nbody\n', { id: 'D' }, 'f.md');
    expect(r.ok).toBe(false);
  });
});
