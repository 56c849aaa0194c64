import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replaceSegment } from './replaceSegment.js';
import { segmentFile } from './segmentFile.js';
import { renderFileBody } from './renderBlocks.js';
import { blockTree } from '../../test/support/dialectArbitraries.js';
import type { Segment } from './types.js';

const flatten = (segs: Segment[]): Segment[] => segs.flatMap((s) => [s, ...flatten(s.children)]);
const nth = (text: string, i: number) => flatten(segmentFile(text).segments)[i]!;

describe('replaceSegment', () => {
  it('rewrites only the block range', () => {
    const text = '---\nid: X\n---\n# Title\n\nold text\n\n- a\n';
    expect(replaceSegment(text, nth(text, 1), 'new *text*')).toBe('---\nid: X\n---\n# Title\n\nnew *text*\n\n- a\n');
  });

  it('indents continuation lines inside an indented page', () => {
    const text = '- item\n\n  <page>\n  <pageTitle>P</pageTitle>\n  <content>\n  child\n  </content>\n  </page>\n';
    const out = replaceSegment(text, nth(text, 2), 'two\nlines')!;
    expect(out).toBe('- item\n\n  <page>\n  <pageTitle>P</pageTitle>\n  <content>\n  two\n  lines\n  </content>\n  </page>\n');
    expect(nth(out, 2).markdown).toBe('two\nlines');
  });

  it('replaces a page title', () => {
    const text = '<card>\n<pageTitle>Old</pageTitle>\n<content>\nx\n</content>\n</card>\n';
    expect(replaceSegment(text, nth(text, 0), 'New')).toBe(text.replace('Old', 'New'));
  });

  it('adds blank lines when a list item becomes a paragraph', () => {
    const text = '- a\n- b\n- c\n';
    expect(replaceSegment(text, nth(text, 1), 'para')).toBe('- a\n\npara\n\n- c\n');
  });

  it("keeps the file's CRLF line endings", () => {
    const text = 'a\r\n\r\nb\r\n';
    expect(replaceSegment(text, nth(text, 1), 'b1\nb2')).toBe('a\r\n\r\nb1\r\nb2\r\n');
  });

  it('keeps a member of a multi-block callout inside it, and refuses to take it out', () => {
    const text = '<callout>\none\n\ntwo\n</callout>\n';
    expect(replaceSegment(text, nth(text, 1), '<callout>deux</callout>')).toBe('<callout>\none\n\ndeux\n</callout>\n');
    expect(replaceSegment(text, nth(text, 1), 'deux')).toBeNull();
  });

  it('refuses markdown that would become several blocks', () => {
    const text = 'a\n\nb\n';
    expect(replaceSegment(text, nth(text, 0), 'x\n\ny')).toBeNull();
  });

  it('always places a one-line paragraph in any block of a rendered tree', () => {
    fc.assert(
      fc.property(blockTree, fc.nat(), (blocks, pick) => {
        const text = renderFileBody(blocks);
        const segs = flatten(segmentFile(text).segments).filter((s) => s.kind === 'block');
        fc.pre(segs.length > 0);
        const seg = segs[pick % segs.length]!;
        const md = seg.inCallout ? '<callout>replaced text</callout>' : 'replaced text';
        const out = replaceSegment(text, seg, md);
        expect(out).not.toBeNull();
        expect(out!.slice(0, seg.start).replace(/\s+$/, '')).toBe(text.slice(0, seg.start).replace(/\s+$/, ''));
      }),
      { numRuns: 200 },
    );
  });
});
