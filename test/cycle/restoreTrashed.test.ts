// A deleted note restored (issue 32): its file removed, the sync moves its document to the space's
// trash and the file to Trash/; `spacesync restore` by the path it had, or by its path in Trash/,
// moves the file back where it was, and the next sync takes the document out of the trash into
// its folder with the blocks it had. A note trashed in the space comes back the same way.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';
import { runCli, writeConfig } from '../cli/cliHarness.js';

const BOOKS = '1A0E7F52-0D1B-4C8B-9E11-2F6A7C3D0011';
const PERSONAL = 'F0F0A1B2-0000-4000-8000-000000000004';
const FILE = 'Personal/Books to read.md';
const TRASHED = 'Trash/Books to read.md';

let space: Space;
let root: string;
/** The document's blocks as the space held them before any delete, without the metadata of the read. */
let original: unknown;

const blocksOf = async () => {
  const strip = (b: any): any => ({ id: b.id, type: b.type, markdown: b.markdown, ...(b.content ? { content: b.content.map(strip) } : {}) });
  return strip(await space.call('GET', '/blocks', undefined, { id: BOOKS }));
};
const idsIn = async (query: Record<string, string>) =>
  ((await space.call('GET', '/documents', undefined, query)).items as Array<{ id: string }>).map((d) => d.id);
const exists = (p: string) => fs.existsSync(path.join(root, p));

async function sync(): Promise<void> {
  const session = await openSession(root, space);
  try {
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  } finally {
    session.close();
  }
}

beforeAll(async () => {
  space = await startSpace(readFixtureFile('fixtures/spaces/demo.json'));
  root = makeRoot();
  writeConfig(root, { link: space.server.baseUrl });
  await sync();
  original = await blocksOf();
}, 60_000);
afterAll(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('restore of a note deleted from the mirror', () => {
  for (const asked of [FILE, TRASHED]) {
    it(`moves it back out of Trash/ when asked by "${asked}", and the next sync takes it out of the trash with its blocks`, async () => {
      fs.rmSync(path.join(root, FILE));
      await sync();
      expect(await idsIn({ location: 'trash' })).toContain(BOOKS);
      expect(exists(TRASHED)).toBe(true);
      const history = await runCli(['history', asked, '--dir', root]);
      expect(history.stdout).toContain(`as it went to the trash (its file to Trash/); restoring it moves the file back to "${FILE}"`);

      const r = await runCli(['restore', asked, '--dir', root]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Moved "${TRASHED}" back to "${FILE}"`);
      expect(exists(FILE)).toBe(true);
      expect(exists(TRASHED)).toBe(false);

      await sync();
      expect(await idsIn({ location: 'trash' })).not.toContain(BOOKS);
      expect(await idsIn({ folderId: PERSONAL })).toContain(BOOKS);
      expect(await blocksOf()).toEqual(original);
      expect(exists(FILE)).toBe(true);
      expect(exists(TRASHED)).toBe(false);
    });
  }

  it('takes back a note trashed in the space the same way, by the path its file had', async () => {
    await space.call('DELETE', '/documents', { documentIds: [BOOKS] });
    await sync();
    expect(exists(TRASHED)).toBe(true);
    expect(exists(FILE)).toBe(false);
    const r = await runCli(['restore', FILE, '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    await sync();
    expect(await idsIn({ folderId: PERSONAL })).toContain(BOOKS);
    expect(await blocksOf()).toEqual(original);
  });

  it('refuses a note that is out of the trash again, saying where it is', async () => {
    const r = await runCli(['restore', FILE, '--dir', root]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`its document went to the trash and is out of it again (in "${FILE}")`);
  });
});
