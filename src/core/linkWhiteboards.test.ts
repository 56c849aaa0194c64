import { describe, expect, it } from 'vitest';
import { linkWhiteboards, sceneFileOf } from './linkWhiteboards.js';
import type { Block } from '../dialect/index.js';

const doc = (...content: Block[]): Block => ({ id: 'D', type: 'page', markdown: 'Roadmap', content });
const wb = (id: string, extra: Partial<Block> = {}): Block => ({
  id,
  type: 'whiteboard',
  url: 'https://h/w?sig=1',
  markdown: '![Whiteboard](https://h/w?sig=1)',
  ...extra,
});

describe('linkWhiteboards', () => {
  it('points a whiteboard at its scene file beside the document, named from its alt text and id', () => {
    const out = linkWhiteboards(
      doc({ id: 't', type: 'text', markdown: 'hi' }, wb('1A2B3C4D-0000'), wb('9F', { markdown: '![Plan B](https://h/x)' })),
      'Projects/Roadmap.md',
    );
    expect(out.content!.map((b) => b.markdown)).toEqual([
      'hi',
      '![Whiteboard](Roadmap.assets/whiteboard-1A2B3C4D.excalidraw)',
      '![Plan B](Roadmap.assets/plan-b-9F.excalidraw)',
    ]);
  });

  it('gives the same names every time and keeps two boards with the same short id apart', () => {
    const d = doc(wb('ABCDEFGH-1'), wb('ABCDEFGH-2'));
    const names = linkWhiteboards(d, 'R.md').content!.map((b) => b.markdown);
    expect(names).toEqual(['![Whiteboard](R.assets/whiteboard-ABCDEFGH.excalidraw)', '![Whiteboard](R.assets/whiteboard-ABCDEFGH-2.excalidraw)']);
    expect(linkWhiteboards(d, 'R.md')).toEqual(linkWhiteboards(d, 'R.md'));
  });

  it('writes a path with spaces in angle brackets, and reads the scene file back from the link', () => {
    const out = linkWhiteboards(doc(wb('AB')), 'Team/My Notes.md').content![0]!.markdown!;
    expect(out).toBe('![Whiteboard](<My Notes.assets/whiteboard-AB.excalidraw>)');
    expect(sceneFileOf(out, 'Team/My Notes.md')).toBe('Team/My Notes.assets/whiteboard-AB.excalidraw');
    expect(sceneFileOf('![Whiteboard](https://h/w?sig=1)', 'a.md')).toBeNull();
    expect(sceneFileOf('![x](../../etc/x.excalidraw)', 'a.md')).toBeNull();
  });
});
