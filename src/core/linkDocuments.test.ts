import { describe, expect, it } from 'vitest';
import type { Block } from '../dialect/index.js';
import { linkDocuments, linkMarkdown, relativePath, relinkMarkdown, resolveLink, unlinkMarkdown, type LinkTargets } from './linkDocuments.js';

const paths: Record<string, string> = {
  'D-ROAD': 'Projects/Roadmap.md',
  'D-SPACE': 'Projects/Q3 plan (draft).md',
  'D-UNI': 'Notizen/Café ünd Straße.md',
  'D-TOP': 'Unsorted/Inbox.md',
};
const targets: LinkTargets = {
  pathOf: (id) => paths[id],
  idOf: (p) => Object.entries(paths).find(([, v]) => v === p)?.[0],
};
const FROM = 'Projects/Sub/Notes.md';

describe('relative paths', () => {
  it('go up to the common folder and down again', () => {
    expect(relativePath('Projects/Sub/Notes.md', 'Projects/Roadmap.md')).toBe('../Roadmap.md');
    expect(relativePath('Projects/Roadmap.md', 'Projects/Roadmap.md')).toBe('Roadmap.md');
    expect(relativePath('Unsorted/A.md', 'Daily Notes/2026-11-20.md')).toBe('../Daily Notes/2026-11-20.md');
    expect(relativePath('Top.md', 'A/B.md')).toBe('A/B.md');
  });
  it('resolve `.`, `..` and empty segments, and refuse what leaves the mirror or is a URL', () => {
    expect(resolveLink(FROM, '../Roadmap.md')).toBe('Projects/Roadmap.md');
    expect(resolveLink(FROM, './../.././Unsorted//Inbox.md')).toBe('Unsorted/Inbox.md');
    expect(resolveLink(FROM, '../../../x.md')).toBeNull();
    expect(resolveLink(FROM, 'https://example.org/a.md')).toBeNull();
    expect(resolveLink(FROM, '/abs.md')).toBeNull();
  });
});

describe('pull: links between documents as relative links', () => {
  it('a document link becomes a relative link to its file; spaces and parentheses in angle brackets, unicode as it is', () => {
    expect(linkMarkdown('see [the plan](block://D-ROAD) now', FROM, targets)).toBe('see [the plan](../Roadmap.md) now');
    expect(linkMarkdown('[q3](block://D-SPACE)', FROM, targets)).toBe('[q3](<../Q3 plan (draft).md>)');
    expect(linkMarkdown('[c](block://D-UNI "title")', FROM, targets)).toBe('[c](<../../Notizen/Café ünd Straße.md> "title")');
  });
  it('a date link becomes a link to the daily note file', () => {
    expect(linkMarkdown('[today](date://2026-11-20)', FROM, targets)).toBe('[today](<../../Daily Notes/2026-11-20.md>)');
    expect(linkMarkdown('[bad](date://tomorrow)', FROM, targets)).toBe('[bad](date://tomorrow)');
  });
  it('unknown ids, links to blocks, out-of-scope links and code stay as they are', () => {
    for (const md of [
      '[x](block://NOPE)',
      '[x](invalid:out_of_scope)',
      '`[x](block://D-ROAD)`',
      '``a ` [x](block://D-ROAD)``',
      '```\n[x](block://D-ROAD)\n```',
      '\\[x\\]\\(block://D-ROAD)',
    ])
      expect(linkMarkdown(md, FROM, targets)).toBe(md);
    expect(linkMarkdown('`[a](block://D-ROAD)` and [b](block://D-ROAD)', FROM, targets)).toBe('`[a](block://D-ROAD)` and [b](../Roadmap.md)');
  });
  it('rewrites text blocks of the tree, never code or media blocks', () => {
    const root: Block = {
      id: 'DOC',
      type: 'page',
      markdown: 'Doc',
      content: [
        { id: 'a', type: 'text', markdown: '[r](block://D-ROAD)' },
        { id: 'b', type: 'code', markdown: '```\n[r](block://D-ROAD)\n```' },
        { id: 'c', type: 'page', markdown: 'Card', content: [{ id: 'd', type: 'text', markdown: '- [r](date://2026-01-02)' }] },
      ],
    };
    const out = linkDocuments(root, 'Projects/Roadmap.md', targets);
    expect(out.content!.map((b) => b.markdown)).toEqual(['[r](Roadmap.md)', '```\n[r](block://D-ROAD)\n```', 'Card']);
    expect(out.content![2]!.content![0]!.markdown).toBe('- [r](<../Daily Notes/2026-01-02.md>)');
    expect(out.content![1]).toBe(root.content![1]);
  });
});

describe('push: relative links to documents sent as block:// and date://', () => {
  it('the reverse of the pull, for every form a user may write', () => {
    for (const id of Object.keys(paths)) {
      const shown = linkMarkdown(`[x](block://${id})`, FROM, targets);
      expect(unlinkMarkdown(shown, FROM, targets)).toBe(`[x](block://${id})`);
    }
    expect(unlinkMarkdown('[q](../Q3%20plan%20(draft).md)', FROM, targets)).toBe('[q](block://D-SPACE)');
    expect(unlinkMarkdown('[q](./../Roadmap.md "t")', FROM, targets)).toBe('[q](block://D-ROAD "t")');
    expect(unlinkMarkdown('[d](<../../Daily Notes/2026-11-20.md>)', FROM, targets)).toBe('[d](date://2026-11-20)');
  });
  it('links to files that are no document, with anchors, leaving the mirror, and code stay as they are', () => {
    for (const md of [
      '[r](report.md)',
      '[r](../Roadmap.md#intro)',
      '[p](pic.png)',
      '[x](../../../../Roadmap.md)',
      '`[x](../Roadmap.md)`',
      '[x](https://example.org/Roadmap.md)',
      '[x](../Road%ZZmap.md)',
    ])
      expect(unlinkMarkdown(md, FROM, targets)).toBe(md);
  });
});

describe('relinking after documents moved', () => {
  const moved = new Map([['Projects/Roadmap.md', 'Archive/Road map.md']]);
  it('a link to a moved document follows it; others stay', () => {
    expect(relinkMarkdown('[a](../Roadmap.md) [b](../../Unsorted/Inbox.md)', FROM, moved)).toBe(
      '[a](<../../Archive/Road map.md>) [b](../../Unsorted/Inbox.md)',
    );
  });
  it('the links of a moved document stay pointing at the same files', () => {
    const isDocument = (p: string) => targets.idOf(p) !== undefined;
    expect(relinkMarkdown('[b](../../Unsorted/Inbox.md) [c](x.png) [d](y.md)', FROM, new Map(), 'Other.md', isDocument)).toBe(
      '[b](Unsorted/Inbox.md) [c](x.png) [d](y.md)',
    );
  });
});
