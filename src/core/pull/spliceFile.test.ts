import { describe, expect, it } from 'vitest';
import { flattenRemote } from './flattenRemote.js';
import { hashBlock } from '../merge/hashBlock.js';
import type { BaseBlock } from '../types.js';
import { segmentFile, type Block } from '../../dialect/index.js';
import { composeFile } from '../files/fileText.js';
import { keepSignedUrls } from '../media/linkAssets.js';
import { MAX_SPLICES, spliceFile } from './spliceFile.js';

const text = (id: string, markdown: string, extra: Partial<Block> = {}): Block => ({ id, type: 'text', markdown, ...extra });
const doc = (content: Block[]): Block => ({ id: 'D', type: 'page', markdown: 'Doc', content });
const baseOf = (root: Block): BaseBlock[] => flattenRemote(root).map((b) => ({ ...b, hash: hashBlock(b.markdown, b.kind) }));

function update(before: Block, after: Block, fileText = composeFile(before, { id: 'D' })) {
  return spliceFile(fileText, baseOf(before), flattenRemote(after), after);
}

describe('spliceFile', () => {
  const old = doc([
    text('a', '# Title'),
    text('b', 'first paragraph'),
    text('c', '- item', { listStyle: 'bullet' }),
    text('d', '- other', { listStyle: 'bullet' }),
    text('e', 'the end'),
  ]);

  it('replaces only the changed block, keeping every other byte (also bytes a fresh render would not give)', () => {
    const file = composeFile(old, { id: 'D' }).replace('first paragraph\n\n', 'first paragraph\n\n\n');
    const after = doc([
      text('a', '# Title'),
      text('b', 'first paragraph, edited'),
      text('c', '- item', { listStyle: 'bullet' }),
      text('d', '- other', { listStyle: 'bullet' }),
      text('e', 'the end'),
    ]);
    const r = update(old, after, file);
    expect(r.mode).toBe('splice');
    expect(r.changed).toBe(1);
    expect(r.text).toBe(file.replace('first paragraph\n', 'first paragraph, edited\n'));
  });

  it('rewrites a list item that became a paragraph in place (a list marker still starts the next block)', () => {
    const after = doc([
      text('a', '# Title'),
      text('b', 'first paragraph'),
      text('c', 'no longer an item'),
      text('d', '- other', { listStyle: 'bullet' }),
      text('e', 'the end'),
    ]);
    const r = update(old, after);
    expect(r.mode).toBe('splice');
    expect(r.text).toBe('---\nid: D\n---\n# Title\n\nfirst paragraph\n\nno longer an item\n- other\n\nthe end\n');
    expect(segmentFile(r.text).segments.map((s) => s.markdown)).toEqual(['# Title', 'first paragraph', 'no longer an item', '- other', 'the end']);
  });

  it('replaces a page title and a block inside the page in one go', () => {
    const page = (title: string, inner: string) => doc([{ id: 'p', type: 'page', markdown: title, content: [text('x', inner)] }, text('z', 'after')]);
    const r = update(page('Sub', 'inside'), page('Renamed sub', 'inside, edited'));
    expect(r.mode).toBe('splice');
    expect(r.text).toBe(composeFile(page('Renamed sub', 'inside, edited'), { id: 'D' }));
  });

  it('renders the body whole when blocks were added, removed or reordered', () => {
    const after = doc([text('a', '# Title'), text('n', 'new'), text('b', 'first paragraph'), text('e', 'the end')]);
    const r = update(old, after);
    expect(r.mode).toBe('render');
    expect(r.text).toBe(composeFile(after, { id: 'D' }));
  });

  it('renders whole past MAX_SPLICES changed blocks', () => {
    const many = (suffix: string) => doc(Array.from({ length: MAX_SPLICES + 1 }, (_, i) => text(`b${i}`, `paragraph ${i}${suffix}`)));
    expect(update(many(''), many(' edited')).mode).toBe('render');
  });

  it('keeps the front matter as it is (the user keys included)', () => {
    const file = `---\nid: D\ntags: [a, b]\n---\n${composeFile(old, { id: 'D' }).split('---\n')[2]}`;
    const after = doc([
      text('a', '# New title'),
      text('b', 'first paragraph'),
      text('c', '- item', { listStyle: 'bullet' }),
      text('d', '- other', { listStyle: 'bullet' }),
      text('e', 'the end'),
    ]);
    expect(update(old, after, file).text.startsWith('---\nid: D\ntags: [a, b]\n---\n# New title\n')).toBe(true);
  });
});

describe('keepSignedUrls', () => {
  it('keeps the base markdown of a media block whose URL was only signed again, and nothing else', () => {
    const img = (url: string): Block => ({ id: 'i', type: 'image', url, markdown: `![Image](${url})` });
    const before = doc([img('http://h/assets/A?sig=1'), text('t', 'words')]);
    const after = doc([img('http://h/assets/A?sig=2'), text('t', 'other words')]);
    const kept = keepSignedUrls(after, baseOf(before));
    expect(kept.content![0]!.markdown).toBe('![Image](http://h/assets/A?sig=1)');
    expect(kept.content![1]!.markdown).toBe('other words');
    const moved = keepSignedUrls(doc([img('http://h/assets/B?sig=3')]), baseOf(before));
    expect(moved.content![0]!.markdown).toBe('![Image](http://h/assets/B?sig=3)');
    const r = spliceFile(composeFile(before, { id: 'D' }), baseOf(before), flattenRemote(kept), kept);
    expect(r.text).toContain('![Image](http://h/assets/A?sig=1)');
    expect(r.changed).toBe(1);
  });
});
