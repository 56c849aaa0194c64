// `sync --once` waits for its media downloads (a one-shot run leaves the mirror whole), but a stop
// request ends that wait at once: the download is dropped, nothing half-written is left, and the
// next run downloads the asset.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import { armFault, adminFetch } from '../client/admin.js';
import { runCli, spawnCli, tempDir, writeConfig } from './cliHarness.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(5000, 4)]);
const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-STOPDL', name: 'Stop', timezone: 'UTC', userId: 'U1' },
  assets: [{ id: 'A-SLOW', contentType: 'image/png', fileName: 'photo.png', base64: PNG.toString('base64') }],
  documents: [
    {
      id: 'D-NOTE',
      title: 'Note',
      content: [
        { id: 'N1', markdown: 'text' },
        { id: 'AB12CD34-IMG', type: 'image', url: 'asset:A-SLOW' },
      ],
    },
  ],
};

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: fixture, limits: 'off', admin: true });
});
afterAll(async () => {
  await server.close();
});

it('a stop request ends the wait for a slow download at once; the next run downloads it', async () => {
  const root = tempDir();
  writeConfig(root, { link: server.baseUrl });
  await armFault(server, { kind: 'delay', delayMs: 20_000, match: { path: '^/assets/A-SLOW' } });
  const run = spawnCli(['sync', '--dir', root, '--once']);
  const doc = path.join(root, 'Unsorted/Note.md');
  for (const end = Date.now() + 20_000; !fs.existsSync(doc);) {
    if (Date.now() > end) throw new Error('the document was never pulled');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 500));
  expect(run.child.exitCode).toBeNull(); // still waiting for the asset
  const at = Date.now();
  run.child.kill('SIGTERM');
  const ended = await run.done;
  expect(Date.now() - at).toBeLessThan(1500);
  expect(ended.code, ended.stderr).toBe(143);
  expect(fs.existsSync(path.join(root, 'Unsorted/Note.assets'))).toBe(false);
  expect(fs.readFileSync(doc, 'utf8')).toMatch(/!\[Image\]\(http:\/\/[^)]*\/assets\/A-SLOW\?/);

  await adminFetch(server, '/faults', { method: 'DELETE' });
  const next = await runCli(['sync', '--dir', root, '--once']);
  expect(next.code, next.stderr).toBe(0);
  expect(fs.readFileSync(path.join(root, 'Unsorted/Note.assets/image-AB12CD34.png'))).toEqual(PNG);
  expect(fs.readFileSync(doc, 'utf8')).toContain('![Image](Note.assets/image-AB12CD34.png)');
  fs.rmSync(root, { recursive: true, force: true });
});
