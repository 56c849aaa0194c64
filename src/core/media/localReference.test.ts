import { describe, expect, it } from 'vitest';
import { coreDialect } from '../merge/mergeFile.js';
import { diffDocument } from '../merge/diff.js';
import { mergeDocument } from '../merge/merge.js';
import { contentTypeOf, localReferenceOf, resolveReference, uploadedTypeOf } from './localReference.js';
import { createAction } from '../push/sendability.js';

describe('localReferenceOf', () => {
  it('an image or an attachment line alone in its block, by a relative path', () => {
    expect(localReferenceOf('![](Roadmap.assets/new.png)')).toEqual({ dest: 'Roadmap.assets/new.png', text: '', image: true });
    expect(localReferenceOf('![Chart](<Road map.assets/c.png>)')).toEqual({ dest: 'Road map.assets/c.png', text: 'Chart', image: true });
    expect(localReferenceOf('![](../pics/x.jpg)')).toEqual({ dest: '../pics/x.jpg', text: '', image: true });
    expect(localReferenceOf('[report](report.pdf)')).toEqual({ dest: 'report.pdf', text: 'report', image: false });
  });

  it('not a URL, an absolute path, an anchor, a document, a path without extension, or a link inside text', () => {
    for (const md of [
      '![](https://example.org/a.png)',
      '![](/etc/a.png)',
      '[x](#heading)',
      '[see](../Projects/Roadmap.md)',
      '[folder](pics)',
      'see [report](report.pdf) here',
      '[x](block://ABC)',
      '[x](a.png?x=1)',
    ])
      expect(localReferenceOf(md), md).toBeNull();
  });
});

describe('resolveReference', () => {
  it('relative to the document, decoded; null when it leaves the root', () => {
    expect(resolveReference('Projects/Roadmap.md', 'Roadmap.assets/new.png')).toBe('Projects/Roadmap.assets/new.png');
    expect(resolveReference('Projects/Roadmap.md', '../pics/x%20y.jpg')).toBe('pics/x y.jpg');
    expect(resolveReference('Roadmap.md', './a.png')).toBe('a.png');
    expect(resolveReference('Projects/Roadmap.md', '../../x.png')).toBeNull();
  });
});

describe('content types', () => {
  it('by extension; the type decides the block', () => {
    expect(contentTypeOf('a.PNG')).toBe('image/png');
    expect(contentTypeOf('talk.mp4')).toBe('video/mp4');
    expect(contentTypeOf('data.xyz')).toBe('application/octet-stream');
    expect(['image/png', 'video/mp4', 'application/pdf'].map(uploadedTypeOf)).toEqual(['image', 'video', 'file']);
  });
});

describe('a reference to upload in the merge', () => {
  it('is left to the media step: held in the file, not created, not a problem', () => {
    const dialect = { ...coreDialect, isUpload: (md: string) => md === '![](a.png)' };
    expect(createAction({ markdown: '![](a.png)', kind: 'block', children: [] }, dialect)).toEqual({ action: 'upload' });
    expect(createAction({ markdown: '![](a.png)', kind: 'block', children: [] }, coreDialect)).toEqual({ action: 'create', type: 'image' });
    const local = [
      { markdown: 'one', kind: 'block' as const, children: [] },
      { markdown: '![](a.png)', kind: 'block' as const, children: [] },
    ];
    const diff = diffDocument([], local, { equals: dialect.equals });
    const m = mergeDocument({ base: [], diff, dialect });
    expect(m.problems).toEqual([]);
    expect(m.nodes.map((n) => [n.markdown, n.held])).toEqual([
      ['one', false],
      ['![](a.png)', true],
    ]);
  });
});
