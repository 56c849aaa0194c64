import { describe, expect, it } from 'vitest';
import { linkAssets, mediaName, relinkAsset, sceneFileOf, unlinkAsset } from './linkAssets.js';
import type { Block } from '../../dialect/index.js';

const doc = (...content: Block[]): Block => ({ id: 'D', type: 'page', markdown: 'Roadmap', content });
const wb = (id: string, extra: Partial<Block> = {}): Block => ({
  id,
  type: 'whiteboard',
  url: 'https://h/w?sig=1',
  markdown: '![Whiteboard](https://h/w?sig=1)',
  ...extra,
});

describe('linkAssets', () => {
  it('points a whiteboard at its scene file beside the document, named from its alt text and id', () => {
    const out = linkAssets(
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
    const names = linkAssets(d, 'R.md').content!.map((b) => b.markdown);
    expect(names).toEqual(['![Whiteboard](R.assets/whiteboard-ABCDEFGH.excalidraw)', '![Whiteboard](R.assets/whiteboard-ABCDEFGH-2.excalidraw)']);
    expect(linkAssets(d, 'R.md')).toEqual(linkAssets(d, 'R.md'));
  });

  it('writes a path with spaces in angle brackets, and reads the scene file back from the link', () => {
    const out = linkAssets(doc(wb('AB')), 'Team/My Notes.md').content![0]!.markdown!;
    expect(out).toBe('![Whiteboard](<My Notes.assets/whiteboard-AB.excalidraw>)');
    expect(sceneFileOf(out, 'Team/My Notes.md')).toBe('Team/My Notes.assets/whiteboard-AB.excalidraw');
    expect(sceneFileOf('![Whiteboard](https://h/w?sig=1)', 'a.md')).toBeNull();
    expect(sceneFileOf('![x](../../etc/x.excalidraw)', 'a.md')).toBeNull();
  });
});

describe('linkAssets: media', () => {
  const img = (id: string, url: string, alt = 'Diagram'): Block => ({ id, type: 'image', markdown: `![${alt}](${url})` });
  const media = new Map([['I1', { url: 'http://h/assets/A1', name: 'diagram-I1.png' }]]);

  it('links a downloaded image where the service gives the URL it came from, re-signed or not; any other URL stays', () => {
    const d = doc(img('I1', 'http://h/assets/A1?sig=2&nonce=9'), img('I2', 'http://h/assets/A2?sig=1'));
    const out = linkAssets(d, 'Team/My Notes.md', (id) => media.get(id)).content!.map((b) => b.markdown);
    expect(out).toEqual(['![Diagram](<My Notes.assets/diagram-I1.png>)', '![Diagram](http://h/assets/A2?sig=1)']);
    // New bytes at the service: a new URL, so the signed link stays until the new asset is downloaded.
    const replaced = linkAssets(doc(img('I1', 'http://h/assets/A9?sig=1')), 'R.md', (id) => media.get(id));
    expect(replaced.content![0]!.markdown).toBe('![Diagram](http://h/assets/A9?sig=1)');
  });

  it("sends an edited line with the service's URL, under the document's old or new name", () => {
    expect(unlinkAsset('![Chart](<My Notes.assets/diagram-I1.png>)', 'diagram-I1.png', 'http://h/assets/A1?sig=3')).toBe('![Chart](http://h/assets/A1?sig=3)');
    expect(unlinkAsset('![Chart](Plans.assets/diagram-I1.png)', 'diagram-I1.png', 'http://h/assets/A1?sig=3')).toBe('![Chart](http://h/assets/A1?sig=3)');
    // A path the sync did not write is not an asset of this block.
    expect(unlinkAsset('![Chart](../pics/diagram-I1.png)', 'diagram-I1.png', 'http://h/x')).toBe('![Chart](../pics/diagram-I1.png)');
  });

  it('names assets from the file name or alt text and the id; the default alt text gives the type', () => {
    expect(mediaName({ id: '1A2B3C4D-9', type: 'image', markdown: '![Team photo](u)' }, '.jpg')).toBe('team-photo-1A2B3C4D.jpg');
    expect(mediaName({ id: 'V1', type: 'video', markdown: '![Image](u)' }, '.mp4')).toBe('video-V1.mp4');
    expect(mediaName({ id: 'F1', type: 'file', markdown: '[Q3 report.pdf](u)' }, '.pdf')).toBe('q3-report-F1.pdf');
    expect(mediaName({ id: 'ABCDEFGH-2', type: 'image', markdown: '![](u)' }, '.png', new Set(['image-abcdefgh.png']))).toBe('image-ABCDEFGH-2.png');
  });
});

describe('relinkAsset', () => {
  it("points a link into the old name's assets folder into the new one's, and leaves every other link", () => {
    expect(relinkAsset('![Whiteboard](Roadmap.assets/whiteboard-W1.excalidraw)', 'Unsorted/Roadmap.md', 'Unsorted/Road map.md')).toBe(
      '![Whiteboard](<Road map.assets/whiteboard-W1.excalidraw>)',
    );
    expect(relinkAsset('![Diagram](<Road map.assets/diagram-I1.png>)', 'Unsorted/Road map.md', 'Work/Plan.md')).toBe('![Diagram](Plan.assets/diagram-I1.png)');
    expect(relinkAsset('![x](Other.assets/x.png)', 'Unsorted/Roadmap.md', 'Unsorted/Plan.md')).toBe('![x](Other.assets/x.png)');
    expect(relinkAsset('![x](Roadmap.assets/deeper/x.png)', 'Unsorted/Roadmap.md', 'Unsorted/Plan.md')).toBe('![x](Roadmap.assets/deeper/x.png)');
    expect(relinkAsset('plain text', 'Unsorted/Roadmap.md', 'Unsorted/Plan.md')).toBe('plain text');
  });
});
