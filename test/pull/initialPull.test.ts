// The first pull of a space: the mirror matches the space exactly, names follow the rules, and a
// second cycle with no change sends only the two listing requests and writes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { demoSpace } from './demoSpace.js';
import { describeRequests, expectMirrorMatches, makeRoot, openSession, readTree, startSpace, type Space } from './harness.js';

let space: Space;
let root: string;
let session: SyncSession | undefined;

beforeAll(async () => {
  space = await startSpace(demoSpace);
});
afterAll(async () => space.close());
afterEach(() => {
  session?.close();
  session = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('initial pull', () => {
  it('mirrors every document, folder and location, with the fewest requests', async () => {
    root = makeRoot();
    session = await openSession(root, space);
    await space.clearRequests();
    const result = await runPull(session.ctx);
    const log = await space.requests();
    const byId = await expectMirrorMatches(root, space);
    // Listing: documents, folders; membership: each non-empty container once; then one read per document.
    expect(result.refused).toBeNull();
    expect(result.written).toHaveLength(demoSpace.documents!.length);
    expect(result.requests).toBe(log.length);
    const reads = log.filter((r) => r.path === '/blocks');
    expect(reads).toHaveLength(demoSpace.documents!.length);
    const listings = describeRequests(log.filter((r) => r.path !== '/blocks'));
    expect(listings).toEqual(
      [
        'GET /documents?fetchMetadata=true',
        'GET /documents?folderId=F-ARCH',
        'GET /documents?folderId=F-ODD',
        'GET /documents?folderId=F-OLD',
        'GET /documents?folderId=F-PERS',
        'GET /documents?folderId=F-PROJ',
        'GET /documents?location=daily_notes',
        'GET /documents?location=templates',
        'GET /documents?location=trash',
        'GET /documents?location=unsorted',
        'GET /folders',
      ].sort(),
    );

    expect(Object.fromEntries([...byId].sort())).toEqual({
      'D-ARCH': 'Projects/Archive/Old plan.md',
      'D-CAFE': 'Unsorted/Caf\u00e9 notes.md',
      'D-DN1': 'Daily Notes/2026-09-04.md',
      'D-DN2': 'Daily Notes/2026-09-05.md',
      'D-EMPTYTITLE': 'Unsorted/Untitled.md',
      'D-MEET1': 'Unsorted/Meeting.md',
      'D-MEET2': 'Unsorted/Meeting (DMEET2).md',
      'D-MEET3': 'Unsorted/meeting (DMEET3).md',
      'D-ODD': 'Unsorted/What_ A_B_ _quotes_ _stars_.md',
      'D-OLD': 'Projects/Archive/Old/Ancient.md',
      'D-PERS': 'Personal/Diary.md',
      'D-Q1': 'Notes_ 2026_Q1/Plan.md',
      'D-ROAD': 'Projects/Roadmap.md',
      'D-TPL': 'Templates/Meeting template.md',
      'D-TRASH': 'Trash/Deleted thing.md',
      'D-UNS': 'Unsorted/Unsorted note.md',
    });
    const tree = readTree(root);
    // Empty folders and locations are directories too.
    for (const dir of ['Unsorted/', 'Templates/', 'Trash/', 'Daily Notes/', 'Empty/', 'Projects/Archive/Old/']) expect(tree.has(dir), dir).toBe(true);
  });

  it('writes front matter with the id, and the title only when the file name cannot carry it', async () => {
    root = makeRoot();
    session = await openSession(root, space);
    await runPull(session.ctx);
    const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
    expect(read('Unsorted/Unsorted note.md')).toBe('---\nid: D-UNS\n---\nhello world\n\nsecond paragraph\n');
    expect(read('Unsorted/Meeting (DMEET2).md')).toBe('---\nid: D-MEET2\ntitle: Meeting\n---\nsecond meeting\n');
    expect(read('Unsorted/Untitled.md')).toBe('---\nid: D-EMPTYTITLE\ntitle: ""\n---\nno title here\n');
    expect(read('Unsorted/What_ A_B_ _quotes_ _stars_.md')).toContain('title: \'What? A/B: "quotes" *stars*\'\n');
    // The decomposed title is written NFC in the name and, since the name then differs, kept exactly in the front matter.
    expect(read('Unsorted/Caf\u00e9 notes.md')).toContain('title: Cafe\u0301 notes\n');
    expect(read('Daily Notes/2026-09-04.md')).toBe("---\nid: D-DN1\n---\nyesterday's note\n");
    expect(read('Projects/Archive/Old/Ancient.md')).toBe('---\nid: D-OLD\n---\n');
    const roadmap = read('Projects/Roadmap.md');
    expect(roadmap).toContain('<card cardLayout="small">\n<pageTitle>A card</pageTitle>\n<content>\ninside the card\n</content>\n</card>');
    expect(roadmap).toContain('<page>\n<pageTitle>Sub page</pageTitle>\n<content>\ntext on the sub page\n\n<page>\n<pageTitle>Deeper</pageTitle>');
    expect(roadmap).toMatch(/<collection name=".*">\n\n\| title \|/);
    expect(roadmap).not.toMatch(/id="/);
  });

  it('a second cycle with no change sends only the two listing requests and writes no file', async () => {
    root = makeRoot();
    session = await openSession(root, space);
    await runPull(session.ctx);
    const before = readTree(root);
    await space.clearRequests();
    const again = await runPull(session.ctx);
    expect(describeRequests(await space.requests())).toEqual(['GET /documents?fetchMetadata=true', 'GET /folders']);
    expect(again.requests).toBe(2);
    expect(again.written).toEqual([]);
    expect(again.moved).toEqual([]);
    const after = readTree(root);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [p, v] of after) expect({ p, ino: v.ino, mtimeMs: v.mtimeMs }).toEqual({ p, ino: before.get(p)!.ino, mtimeMs: before.get(p)!.mtimeMs });
  });
});
