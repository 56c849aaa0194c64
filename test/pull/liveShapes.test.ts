// The live-shapes space (fixtures/spaces/live-shapes.json): blocks with exactly the field sets,
// values and key order of recorded live responses, documents with empty titles and daily notes
// listed without a date, and a document whose pages and collection a depth-limited read cuts (with
// the previews the live service sends there). The server serves them in those shapes; the sync
// reads at full depth, mirrors them exactly (no preview ever reaches a file or a write), brings an
// edit of a file there and back, and rests afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { syncOnce, runPull, type SyncSession } from '../../src/sync/index.js';
import { expectMirrorMatches, readTree, useMirror, type Space } from './harness.js';

const MAIN = '5A9E003F-11FE-4000-8000-00000000003F';
const CUT = '5A9E0048-11FE-4000-8000-000000000048';
const id = (n: number) => `5A9E00${n.toString(16).toUpperCase()}-11FE-4000-8000-0000000000${n.toString(16).toUpperCase()}`;
const PREVIEW = /contentPreviewMd|itemsPreviewMd|<contentPreview>|<itemsPreview>/;
let space: Space;
let root: string;
let session: SyncSession;

useMirror(readFixtureFile('fixtures/spaces/live-shapes.json'), (m) => ({ space, root, session } = m));

/** The key sets, in order, of the recorded live document the fixture rebuilds (content left out). */
const T = 'id,type,textStyle,markdown';
const PLAIN = 'id,type,markdown';
const LINE = 'id,type,lineStyle,markdown';
const CODE = 'id,type,language,rawCode,markdown';
const ALIGNED = 'id,type,textAlignment,markdown';
const TASK = 'id,type,taskInfo,listStyle,markdown';
const LIST = 'id,type,listStyle,markdown';
const NESTED = 'id,type,indentationLevel,listStyle,markdown';
const QUOTE = 'id,type,decorations,markdown';
const STYLED = 'id,type,textStyle,decorations,color,markdown';
const CARD = 'id,type,textStyle,cardLayout,markdown';
const URL_ONLY = 'id,type,url,markdown';
const EXPECTED = [
  T,
  T,
  T,
  T,
  PLAIN,
  T,
  PLAIN,
  PLAIN,
  LINE,
  LINE,
  LINE,
  LINE,
  LINE,
  PLAIN,
  CODE,
  ALIGNED,
  'id,type,url,title,description,markdown',
  CODE,
  TASK,
  TASK,
  TASK,
  LIST,
  NESTED,
  NESTED,
  NESTED,
  LIST,
  LIST,
  NESTED,
  NESTED,
  NESTED,
  LIST,
  LIST,
  LIST,
  NESTED,
  NESTED,
  LIST,
  QUOTE,
  QUOTE,
  STYLED,
  STYLED,
  ALIGNED,
  ALIGNED,
  'id,type,textAlignment,color,markdown',
  'id,type,textAlignment,font,color,markdown',
  'id,type,textAlignment,font,color,markdown',
  'id,type,textAlignment,font,markdown',
  URL_ONLY,
  URL_ONLY,
  PLAIN,
  T,
  PLAIN,
  CARD,
  PLAIN,
  CARD,
  PLAIN,
  CARD,
  PLAIN,
  CARD,
  PLAIN,
];

describe('the live-shapes space', () => {
  it('is served with the key sets and key order of the recorded live responses', async () => {
    const root0 = (await space.call('GET', '/blocks', undefined, { id: MAIN })) as any;
    const shapes: string[] = [];
    const walk = (b: any) => {
      shapes.push(
        Object.keys(b)
          .filter((k) => k !== 'content')
          .join(','),
      );
      for (const c of b.content ?? []) walk(c);
    };
    walk(root0);
    expect(shapes[0]).toBe(T);
    expect(shapes.slice(1)).toEqual(EXPECTED);
    const byMarkdown = new Map<string, any>();
    const index = (b: any) => {
      byMarkdown.set(b.markdown, b);
      for (const c of b.content ?? []) index(c);
    };
    index(root0);
    expect(byMarkdown.get('*****')).toMatchObject({ type: 'line', lineStyle: 'regular' });
    expect(byMarkdown.get('A page inside')).toMatchObject({ type: 'page', textStyle: 'page' });
    expect(byMarkdown.get('A page inside')).not.toHaveProperty('title');
    expect(byMarkdown.get('  - ')).toMatchObject({ indentationLevel: 1, listStyle: 'bullet' });
    expect(byMarkdown.get('![Whiteboard](https://example.com/board/7Qx2)')).toMatchObject({ type: 'whiteboard', url: 'https://example.com/board/7Qx2' });
    const listing = (await space.call('GET', '/documents')).items as Array<Record<string, unknown>>;
    expect(listing.every((d) => Object.keys(d).join(',') === 'id,title')).toBe(true);
    expect(listing.filter((d) => d.title === '')).toHaveLength(2);
  });

  it('is cut by a depth-limited read with the previews of the live service', async () => {
    const doc = (await space.call('GET', '/blocks', undefined, { id: CUT, maxDepth: '1' })) as any;
    const [, page, collection] = doc.content;
    expect(Object.keys(page).join(',')).toBe(`${T},contentPreviewMd`);
    expect(page.contentPreviewMd).toBe('Words on the outer page\nThe inner page\nWords on the inner page');
    expect(collection).not.toHaveProperty('content');
    expect(collection.itemsPreviewMd).toBe(
      ['| title | author | status |', '| --- | --- | --- |', '| Dune | Frank Herbert | Done |', '| Piranesi | Susanna Clarke | Reading |'].join('\n'),
    );
    expect(collection.markdown).toContain(`<itemsPreview>\n    | title | author | status |`);
    const items = (await space.call('GET', `/collections/${id(0x4e)}/items`, undefined, { maxDepth: '0' })).items as any[];
    expect(items.map((i) => i.contentPreviewMd)).toEqual(['A note on the book', undefined]);
    const text = await (await fetch(`${space.server.baseUrl}/blocks?id=${CUT}&maxDepth=1`, { headers: { accept: 'text/markdown' } })).text();
    expect(text).toContain(
      [
        '      <contentPreview>',
        '        Words on the outer page',
        '        The inner page',
        '        Words on the inner page',
        '      </contentPreview>',
      ].join('\n'),
    );
  });

  it('is mirrored exactly by the first pull, daily notes and untitled documents included', async () => {
    await space.clearRequests();
    const result = await runPull(session.ctx);
    expect(result.failed).toEqual([]);
    expect(result.blocked).toEqual([]);
    const byId = await expectMirrorMatches(root, space);
    expect(byId.size).toBe(6);
    expect([...byId.values()].filter((p) => p.startsWith('Daily Notes/'))).toHaveLength(2);
    // The sync reads documents whole: no read of a document is depth-limited, so no preview comes.
    const reads = (await space.requests()).filter((q) => q.method === 'GET' && q.path === '/blocks');
    expect(reads.length).toBeGreaterThanOrEqual(6);
    for (const q of reads) expect(q.query.maxDepth ?? '-1', JSON.stringify(q.query)).toBe('-1');
    const files = [...readTree(root).values()].map((v) => v.text ?? '').join('\n');
    expect(files).toContain('Words on the inner page');
    expect(files).toContain('A note on the book');
    expect(files).not.toMatch(PREVIEW);
  });

  it('drops the preview fields from any block the client reads, so none can reach a file or a write', async () => {
    const cut = await session.ctx.client.getBlocks({ id: CUT, maxDepth: 1 });
    // The fields go; a cut collection's markdown keeps what the service rendered (output-only tags the dialect never takes as input).
    expect(JSON.stringify(cut)).not.toMatch(/contentPreviewMd|itemsPreviewMd/);
    expect((cut.content ?? []).map((b) => b.id)).toEqual([id(0x49), id(0x4a), id(0x4e)]);
    const root0 = await session.ctx.client.getBlocks({ id: CUT, maxDepth: 0 });
    expect(root0).toEqual({ id: CUT, type: 'page', textStyle: 'page', markdown: 'Cut by the depth limit' });
  });

  it('sends an edit of the file in one PUT, and the next cycle rests', async () => {
    const rel = session.journal.getDocument(MAIN)!.path;
    const file = path.join(root, rel);
    const before = fs.readFileSync(file, 'utf8');
    expect(before).toContain('  - \n');
    fs.writeFileSync(file, before.replace('Plain body text', 'Plain body text, edited in the file'));
    await space.clearRequests();
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    const writes = (await space.requests()).filter((q) => q.method !== 'GET');
    expect(writes.map((q) => `${q.method} ${q.path}`)).toEqual(['PUT /blocks']);
    expect(JSON.stringify(await space.requests())).not.toMatch(/maxDepth/);
    const read = (await space.call('GET', '/blocks', undefined, { id: MAIN })) as any;
    expect(read.content.map((b: any) => b.markdown)).toContain('Plain body text, edited in the file');
    await expectMirrorMatches(root, space);
    const settled = readTree(root);
    await space.clearRequests();
    const idle = await syncOnce(session.ctx);
    expect(idle.exitCode).toBe(0);
    expect(idle.pull?.written ?? []).toEqual([]);
    expect((await space.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
    for (const [p, v] of readTree(root)) expect(v.text, p).toBe(settled.get(p)?.text);
  });
});
