import { describe, expect, it } from 'vitest';
import { frontMatter } from './frontMatter.js';
import { segmentFile } from './segmentFile.js';
import { joinSegments } from '../../test/support/joinSegments.js';

describe('frontMatter', () => {
  it('reads YAML between --- lines at the start and keeps the raw text', () => {
    const text = '---\nid: ABC\ntags: [a, b]\n---\nbody\n';
    expect(frontMatter(text)).toEqual({ raw: '---\nid: ABC\ntags: [a, b]\n---\n', start: 0, end: 29, data: { id: 'ABC', tags: ['a', 'b'] } });
  });

  it('accepts CRLF, a BOM, an empty block and a ... closing line', () => {
    expect(frontMatter('---\r\nid: X\r\n---\r\nx')?.data).toEqual({ id: 'X' });
    expect(frontMatter('\uFEFF---\nid: X\n---\n')?.data).toEqual({ id: 'X' });
    expect(frontMatter('---\n---\n')?.data).toEqual({});
    expect(frontMatter('---\nid: X\n...\nbody')?.end).toBe(14);
  });

  it('reports broken YAML and non-mappings in error, never throwing', () => {
    const broken = frontMatter('---\nid: [unclosed\n---\n');
    expect(broken?.error).toMatch(/not valid YAML/);
    expect(broken?.raw).toBe('---\nid: [unclosed\n---\n');
    expect(frontMatter('---\n- a\n- b\n---\n')?.error).toMatch(/key: value/);
  });

  it('is absent when the file does not start with a closed --- block', () => {
    expect(frontMatter('body\n---\nid: X\n---\n')).toBeNull();
    expect(frontMatter('---\nid: X\nno closing line')).toBeNull();
    expect(segmentFile('---\ntext').segments.map((s) => s.markdown)).toEqual(['---', 'text']);
  });

  it('puts the body segments after the front matter', () => {
    const text = '---\nid: X\n---\n\n# Title\n';
    const f = segmentFile(text);
    expect(f.segments.map((s) => [s.start, s.markdown])).toEqual([[15, '# Title']]);
    expect(joinSegments(f)).toBe(text);
  });
});
