// Scenario 13: `kill -9` after some of a push's requests. After a restart the space and the mirror
// end exactly as after a run that was not killed, with no block or document twice: the intents
// of the killed run make its documents read again and merged, never sent again blindly.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { readTree } from '../pull/harness.js';
import { spawnCli } from '../cli/spawnCli.js';
import { applyLocal, closeWorld, expectConverged, openWorld, remoteBlocks, writesOf, type LocalStep, type World } from './pushHarness.js';
import { adminFetch } from '../client/admin.js';

const EDITS: LocalStep[] = [
  { edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, edited' },
  { write: 'Projects/Launch.md', text: '# Launch\n\nsoon\n\n- one\n- two\n' },
  { edit: 'Projects/Plan.md', from: 'closing words', to: 'closing words\n\nan added paragraph\n\nand another' },
  { edit: 'Projects/Plan.md', from: '- two\n', to: '' },
  { move: 'Unsorted/Ideas.md', to: 'Home/Ideas.md' },
  { write: 'Garden/Seeds.md', text: 'tomatoes\n\nbeans\n' },
  { write: 'Daily Notes/2026-09-05.md', text: 'today\n' },
];

/** The space as a comparable outline: per document (by title), where it is and its blocks. */
async function outline(w: World): Promise<string[]> {
  const snapshot = (await (await adminFetch(w.space.server, '/snapshot')).json()) as SpaceFixture;
  const folderName = new Map<string, string>();
  const walk = (fs: SpaceFixture['folders'] = []) =>
    fs.forEach((f) => {
      folderName.set(f.id!, f.name);
      walk(f.folders);
    });
  walk(snapshot.folders);
  const out: string[] = [];
  for (const d of snapshot.documents ?? []) {
    const blocks = (await remoteBlocks(w.space, d.id!)).map((b) => b.markdown);
    const where = d.folderId ? folderName.get(d.folderId) : d.dailyNoteDate ? `daily ${d.dailyNoteDate}` : (d.location ?? 'unsorted');
    out.push(`${d.title} @ ${where}: ${blocks.join(' | ')}`);
  }
  return [...out, ...[...folderName.values()].map((n) => `folder ${n}`)].sort();
}

let reference: { outline: string[]; files: string[] };

beforeAll(async () => {
  const w = await openWorld();
  try {
    w.session.close();
    applyLocal(w, EDITS);
    const r = await spawnCli(['sync', '--once', '--dir', w.root], { SPACESYNC_LINK: w.space.server.baseUrl }).done;
    expect(r.code, r.stderr).toBe(0);
    reference = { outline: await outline(w), files: [...readTree(w.root).keys()].sort() };
  } finally {
    await closeWorld(w);
  }
});

describe('kill -9 in the middle of a push', () => {
  for (const after of [1, 3, 5]) {
    it(`killed after ${after} writing request(s): the restart ends as an uninterrupted run`, async () => {
      const w = await openWorld();
      try {
        w.session.close();
        applyLocal(w, EDITS);
        await adminFetch(w.space.server, '/faults', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // Every writing request is slowed, so the kill lands while the push is under way.
          body: JSON.stringify(['POST', 'PUT', 'DELETE'].map((method) => ({ kind: 'delay', delayMs: 150, count: 1000, match: { method } }))),
        });
        await w.space.clearRequests();
        const run = spawnCli(['sync', '--once', '--dir', w.root], { SPACESYNC_LINK: w.space.server.baseUrl });
        for (;;) {
          await new Promise((r) => setTimeout(r, 10));
          if ((await writesOf(w.space)).length >= after) break;
        }
        run.child.kill('SIGKILL');
        expect((await run.done).signal).toBe('SIGKILL');
        await adminFetch(w.space.server, '/faults', { method: 'DELETE' });

        const again = await spawnCli(['sync', '--once', '--dir', w.root], { SPACESYNC_LINK: w.space.server.baseUrl }).done;
        expect(again.stderr).toBe('');
        expect(again.code).toBe(0);
        expect(await outline(w)).toEqual(reference.outline);
        expect([...readTree(w.root).keys()].sort()).toEqual(reference.files);
        await expectConverged(w);
        const idle = await spawnCli(['sync', '--once', '--dir', w.root], { SPACESYNC_LINK: w.space.server.baseUrl }).done;
        expect(idle.code).toBe(0);
      } finally {
        await closeWorld(w);
      }
    });
  }
});
