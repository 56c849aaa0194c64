import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import spec from 'commonmark-spec';
import { segmentFile, frontMatter } from './segmentFile.js';
import { joinSegments } from '../../test/support/joinSegments.js';
import { renderFileBody, isPageLike, renderCollection } from './renderBlocks.js';
import { blockTree, dialectishText } from '../../test/support/dialectArbitraries.js';
import type { Block, FileSegments, Segment } from './types.js';

/** Every segment's text is its slice, pieces are in order and inside their parent. */
function checkRanges(text: string, f: FileSegments): void {
  const walk = (segs: Segment[], from: number, to: number) => {
    let prev = from;
    for (const s of segs) {
      expect(s.text).toBe(text.slice(s.start, s.end));
      expect(s.start).toBeGreaterThanOrEqual(prev);
      expect(s.end).toBeLessThanOrEqual(to);
      prev = s.end;
      walk(s.children, s.start, s.end);
    }
  };
  walk(f.segments, f.frontMatter?.end ?? 0, text.length);
}

function faithful(text: string): void {
  const f = segmentFile(text);
  expect(joinSegments(f)).toBe(text);
  checkRanges(text, f);
}

interface Shape {
  markdown: string;
  kind: string;
  attrs?: Record<string, string>;
  children: Shape[];
}
const shapeOfSegments = (segs: Segment[]): Shape[] =>
  segs.map((s) => ({
    markdown: s.markdown,
    kind: s.kind,
    ...(s.attrs ? { attrs: s.attrs } : {}),
    children: shapeOfSegments(s.children),
  }));
const shapeOfBlocks = (blocks: Block[]): Shape[] =>
  blocks.map((b) => {
    if (isPageLike(b)) {
      const card = b.textStyle === 'card';
      return {
        markdown: b.markdown ?? '',
        kind: card ? 'card' : 'page',
        ...(card && b.cardLayout ? { attrs: { cardLayout: b.cardLayout } } : {}),
        children: shapeOfBlocks(b.content ?? []),
      };
    }
    if (b.type === 'collection') return { markdown: renderCollection(b), kind: 'readonly', children: [] };
    return { markdown: b.markdown ?? '', kind: 'block', children: [] };
  });

describe('segmentFile', () => {
  it('gives any text back byte for byte, never throwing', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), faithful), { numRuns: 400 });
    fc.assert(fc.property(dialectishText, faithful), { numRuns: 1500 });
  });

  it('gives a rendered tree back: same markdowns, kinds and nesting', () => {
    fc.assert(
      fc.property(blockTree, (blocks) => {
        const body = renderFileBody(blocks);
        const f = segmentFile(body);
        expect(shapeOfSegments(f.segments)).toEqual(shapeOfBlocks(blocks));
        expect(joinSegments(f)).toBe(body);
      }),
      { numRuns: 600 },
    );
  });

  it('stays linear and within the stack on pathological nesting', () => {
    for (const text of [
      '<page>\n<content>\n'.repeat(5000) + '</page>\n',
      '<card>\n<pageTitle>x</pageTitle>\n<content>\n'.repeat(3000) + '</content>\n</card>\n'.repeat(2),
      '$$ a\n'.repeat(5000),
      '<collection>\n'.repeat(5000) + '</collection>\n',
      '<callout>\n'.repeat(5000),
    ])
      faithful(text);
  });

  it('reads every CommonMark spec example without throwing, byte-faithfully', () => {
    expect(spec.tests.length).toBe(652);
    for (const t of spec.tests) {
      faithful(t.markdown);
      faithful(t.markdown.replace(/\n/g, '\r\n'));
    }
  });
});

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
