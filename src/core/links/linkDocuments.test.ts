import { describe, expect, it } from 'vitest';
import type { Block } from '../../dialect/index.js';
import { linkDocuments, linkMarkdown, relativePath, relinkMarkdown, resolveLink, unlinkMarkdown, type Anchor, type LinkTargets } from './linkDocuments.js';

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
  it('links to files that are no document, with anchors no block answers to, leaving the mirror, and code stay as they are', () => {
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

describe('links to blocks inside documents: anchors', () => {
  const anchors: Record<string, Anchor> = {
    'B-GOALS': { doc: 'D-ROAD', fragment: 'Goals for 2026' },
    'B-PARA': { doc: 'D-SPACE', fragment: '^bpara' },
  };
  const withAnchors: LinkTargets = {
    ...targets,
    anchorOf: (id) => anchors[id],
    blockAt: (doc, fragment) => Object.entries(anchors).find(([, a]) => a.doc === doc && a.fragment === fragment)?.[0],
  };

  it('a link to a heading shows its encoded text after #, one to another block its short id; in angle brackets with the path when it needs them', () => {
    expect(linkMarkdown('[g](block://B-GOALS) [p](block://B-PARA) [x](block://B-NONE)', FROM, withAnchors)).toBe(
      '[g](../Roadmap.md#Goals%20for%202026) [p](<../Q3 plan (draft).md#^bpara>) [x](block://B-NONE)',
    );
  });

  it('reads back to block:// from the form the pull writes and from a typed one; an unknown anchor stays as typed', () => {
    for (const id of Object.keys(anchors))
      expect(unlinkMarkdown(linkMarkdown(`[x](block://${id})`, FROM, withAnchors), FROM, withAnchors)).toBe(`[x](block://${id})`);
    expect(unlinkMarkdown('[g](<../Roadmap.md#Goals for 2026>)', FROM, withAnchors)).toBe('[g](block://B-GOALS)');
    expect(unlinkMarkdown('[p](../Q3%20plan%20(draft).md#^bpara "t")', FROM, withAnchors)).toBe('[p](block://B-PARA "t")');
    for (const md of ['[r](../Roadmap.md#^nope)', '[r](../Roadmap.md#Elsewhere)', '`[g](../Roadmap.md#Goals%20for%202026)`', '[r](../Roadmap.md#bad%ZZ)'])
      expect(unlinkMarkdown(md, FROM, withAnchors)).toBe(md);
  });

  it('the block a file links to carries its marker; a heading named by its text does not', () => {
    const root: Block = {
      id: 'D-SPACE',
      type: 'page',
      markdown: 'Q3',
      content: [
        { id: 'B-PARA', type: 'text', markdown: '- a point' },
        { id: 'B-GOALS', type: 'text', markdown: '# Goals for 2026' },
        { id: 'B-NONE', type: 'text', markdown: 'plain' },
      ],
    };
    expect(linkDocuments(root, 'Projects/Q3 plan (draft).md', withAnchors).content!.map((b) => b.markdown)).toEqual([
      '- a point ^bpara',
      '# Goals for 2026',
      'plain',
    ]);
  });

  it('a moved document takes the links to its blocks along, their fragments as written', () => {
    const moved = new Map([['Projects/Roadmap.md', 'Archive/Road map.md']]);
    expect(relinkMarkdown('[g](../Roadmap.md#Goals%20for%202026) [p](../Roadmap.md#^bpara)', FROM, moved)).toBe(
      '[g](<../../Archive/Road map.md#Goals%20for%202026>) [p](<../../Archive/Road map.md#^bpara>)',
    );
  });
});
