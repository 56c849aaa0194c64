// A restore puts back every property the history holds (issue 32), on every block type of the
// live-shapes space: the file emptied and pushed (every block deleted), `spacesync restore` and a
// sync bring back blocks equal to the originals but for their ids (and what the service sets on
// its own: a finished task's completion time, a new whiteboard's board), cards with their layouts,
// colours, alignments, fonts, a rich URL as one. The same from a local version: the file a merge
// wrote over, restored, brings back the blocks the space had deleted, with their fields.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';
import { runCli, writeConfig } from '../cli/cliHarness.js';

const MAIN = '5A9E003F-11FE-4000-8000-00000000003F';
const FILE = 'Shapes/Every block as the service sends it.md';

let space: Space;
let root: string;

interface Shown {
  id?: string;
  type: string;
  markdown?: string;
  url?: string;
  taskInfo?: Record<string, unknown>;
  content?: Shown[];
  metadata?: unknown;
}

/**
 * The document's blocks without what a block made again cannot keep: its id (and a whiteboard's,
 * its board's URL), the read's metadata, and the time the service marks a task done at.
 */
function comparable(b: Shown): unknown {
  const { id: _id, metadata: _m, content, ...rest } = b;
  const out: Record<string, unknown> = { ...rest };
  if (rest.taskInfo) {
    const { completedAt: _c, canceledAt: _x, ...task } = rest.taskInfo;
    out.taskInfo = task;
  }
  if (rest.type === 'whiteboard') {
    out.url = 'board';
    out.markdown = (rest.markdown ?? '').replace(rest.url ?? '', 'board');
  }
  return content ? { ...out, content: content.map(comparable) } : out;
}
const blocks = async (): Promise<Shown[]> => ((await space.call('GET', '/blocks', undefined, { id: MAIN })) as Shown).content ?? [];

async function sync(settings: { force?: boolean } = {}): Promise<void> {
  const session = await openSession(root, space, { settings });
  try {
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  } finally {
    session.close();
  }
}

beforeEach(async () => {
  space = await startSpace(readFixtureFile('fixtures/spaces/live-shapes.json'));
  root = makeRoot();
  writeConfig(root, { link: space.server.baseUrl });
  await sync();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a restore', () => {
  it('of a remote version brings back every block of every type as it was, ids aside', async () => {
    const original = await blocks();
    const types = new Set(original.flatMap((b) => [b.type, ...(b.content ?? []).map((c) => c.type)]));
    expect([...types].sort()).toEqual(['code', 'image', 'line', 'page', 'richUrl', 'text', 'whiteboard']);
    const text = fs.readFileSync(path.join(root, FILE), 'utf8');
    fs.writeFileSync(path.join(root, FILE), '');
    await sync({ force: true });
    expect(await blocks()).toEqual([]);

    const r = await runCli(['restore', FILE, '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('with "Shapes/Every block as the service sends it.assets/whiteboard-5A9E002F.excalidraw" it links written back');
    expect(fs.readFileSync(path.join(root, FILE), 'utf8')).toBe(text);
    await sync();
    const restored = await blocks();
    expect(restored.map(comparable)).toEqual(original.map(comparable));
    expect(restored.map((b) => b.id).filter((id) => original.some((o) => o.id === id))).toEqual([]);
    // Settled: the file as it was, and the next sync sends nothing.
    expect(fs.readFileSync(path.join(root, FILE), 'utf8')).toBe(text);
    await space.clearRequests();
    await sync();
    expect((await space.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('of a local version brings back the blocks the space deleted with their fields', async () => {
    const original = await blocks();
    const styled = original.filter((b) => b.markdown !== 'Plain body text').map((b) => b.id!);
    // The space deletes every block but one while the file edits that one: the merge writes the deletes over the file.
    await space.call('DELETE', '/blocks', { blockIds: styled });
    const file = path.join(root, FILE);
    const edited = fs.readFileSync(file, 'utf8').replace('Plain body text', 'Plain body text, edited here');
    fs.writeFileSync(file, edited);
    await sync();
    expect((await blocks()).map((b) => b.markdown)).toEqual(['Plain body text, edited here']);

    const history = JSON.parse((await runCli(['history', FILE, '--dir', root, '--json'])).stdout) as { versions: Array<{ version: number; cause: string }> };
    const merged = history.versions.find((v) => v.cause === 'merge')!;
    const r = await runCli(['restore', FILE, '--dir', root, '--version', String(merged.version)]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(edited);
    await sync();
    const edit = (b: Shown): Shown => (b.markdown === 'Plain body text' ? { ...b, markdown: 'Plain body text, edited here' } : b);
    expect((await blocks()).map(comparable)).toEqual(original.map(edit).map(comparable));
  });
});
