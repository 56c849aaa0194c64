// Media up across a kill: `sync --once` SIGKILLed once its `POST /upload` was applied and its answer
// lost (the connection reset after the service applied it): what a crash between the request and
// its record leaves. The next run finds the block by the file's bytes and adopts it: one image block
// in the space, the file as the user wrote it, nothing uploaded twice.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { runPull } from '../../src/sync/index.js';
import { armFault } from '../client/admin.js';
import { spawnCli } from '../cli/spawnCli.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-UPK', name: 'Up', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-ROAD',
      title: 'Road map',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'R1', markdown: 'The plan:' },
        { id: 'R2', markdown: 'closing words' },
      ],
    },
  ],
};
const DOC = 'Unsorted/Road map.md';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('killed while out')]);

let space: Space;
let root: string;
beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  const session = await openSession(root, space);
  await runPull(session.ctx);
  session.close();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const uploadIntents = () => {
  const db = new Database(path.join(root, '.spacesync', 'journal.db'), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM intents WHERE op = 'POST /upload'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};
const images = async () =>
  ((await space.call('GET', '/blocks', undefined, { id: 'D-ROAD' })) as { content: Array<{ type: string }> }).content.filter((b) => b.type === 'image');

it('killed while its upload was out: the next run adopts the block the service made, and uploads nothing', async () => {
  fs.mkdirSync(path.join(root, 'Unsorted/Road map.assets'));
  fs.writeFileSync(path.join(root, 'Unsorted/Road map.assets/new.png'), PNG);
  fs.writeFileSync(path.join(root, DOC), fs.readFileSync(path.join(root, DOC), 'utf8').replace('The plan:\n', 'The plan:\n\n![](<Road map.assets/new.png>)\n'));
  const text = fs.readFileSync(path.join(root, DOC), 'utf8');
  await armFault(space.server, { kind: 'reset-after-apply', match: { method: 'POST', path: '^/upload$' } });
  const env = { SPACESYNC_LINK: space.server.baseUrl };
  const run = spawnCli(['sync', '--once', '--dir', root], env);
  for (const end = Date.now() + 20_000; !(await space.requests()).some((r) => r.path === '/upload');) {
    if (Date.now() > end) throw new Error('the upload was never sent');
    await new Promise((r) => setTimeout(r, 5));
  }
  run.child.kill('SIGKILL');
  await run.done;
  expect(await images()).toHaveLength(1);
  expect(uploadIntents()).toBe(1);
  await space.clearRequests();
  const again = await spawnCli(['sync', '--once', '--dir', root], env).done;
  expect(again.code, again.stderr).toBe(0);
  expect((await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);
  expect(await images()).toHaveLength(1);
  expect(uploadIntents()).toBe(0);
  expect(fs.readFileSync(path.join(root, DOC), 'utf8')).toBe(text);
  const quiet = await spawnCli(['sync', '--once', '--dir', root], env).done;
  expect(quiet.code, quiet.stderr).toBe(0);
  expect(await images()).toHaveLength(1);
  expect(fs.readFileSync(path.join(root, DOC), 'utf8')).toBe(text);
});
