// The project's demo space (fixtures/spaces/demo.json: every block type, comments, collections,
// whiteboards, media, daily notes, nested folders): the mirror matches it exactly, an idle cycle
// after it costs the listing alone, and the changes a user makes in the app show up in one cycle.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { describeRequests, expectMirrorMatches, readTree, useMirror, type Space } from './harness.js';

let space: Space;
let root: string;
let session: SyncSession;

useMirror(readFixtureFile('fixtures/spaces/demo.json'), (m) => ({ space, root, session } = m));

describe('the demo space', () => {
  it('is mirrored exactly: one file per document, each with exactly its blocks', async () => {
    const result = await runPull(session.ctx);
    expect(result.failed).toEqual([]);
    expect(result.blocked).toEqual([]);
    const byId = await expectMirrorMatches(root, space);
    expect(byId.size).toBe(30);
    const paths = [...byId.values()];
    expect(paths.filter((p) => p.startsWith('Daily Notes/'))).toHaveLength(6);
    expect(paths.filter((p) => p.startsWith('Trash/'))).toHaveLength(2);
    expect(paths.filter((p) => p.startsWith('Templates/'))).toHaveLength(2);
  });

  it('costs the two listing requests and writes nothing when nothing changed', async () => {
    const before = readTree(root);
    await space.clearRequests();
    const idle = await runPull(session.ctx);
    expect(describeRequests(await space.requests())).toEqual(['GET /documents?fetchMetadata=true', 'GET /folders']);
    expect(idle.written).toEqual([]);
    for (const [p, v] of readTree(root)) expect(v.mtimeMs, p).toBe(before.get(p)?.mtimeMs);
  });

  it('brings an edit of the largest document into its file as one splice', async () => {
    const id = '1A0E7F52-0D1B-4C8B-9E11-2F6A7C3D0016';
    const rec = session.journal.getDocument(id)!;
    const target = session.journal.getBaseBlocks(id).find((b) => b.type === 'text' && b.kind === 'block' && b.markdown.length > 10)!;
    const before = fs.readFileSync(path.join(root, rec.path), 'utf8');
    await space.call('PUT', '/blocks', { blocks: [{ id: target.id, markdown: 'Edited in the app.' }] });
    await space.clearRequests();
    const result = await runPull(session.ctx);
    expect(describeRequests(await space.requests())).toEqual(['GET /blocks?id=' + id, 'GET /documents?fetchMetadata=true', 'GET /folders']);
    expect(result.written).toEqual([{ id, path: rec.path, mode: 'splice' }]);
    const after = fs.readFileSync(path.join(root, rec.path), 'utf8');
    expect(after).toBe(before.replace(target.markdown, 'Edited in the app.'));
    await expectMirrorMatches(root, space);
  });
});
