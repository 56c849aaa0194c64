// `spacesync demo` as `npm start` runs it: the sample space served locally and synced into a
// folder; a change made in the space through the printed link reaches the file; Ctrl-C stops both;
// a second run goes on with the same space. And the folders it refuses to fill.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { SPAWN_BIN } from '../spawnBin.js';
import { spawnCli, tempDir, writeConfig, runCli, REPO } from './cliHarness.js';

const QUICK_IDEA = path.join('Unsorted', 'Quick idea.md');
const BLOCK = 'B10C0170-DE40-4000-8000-000000000170';
const DOC = '1A0E7F52-0D1B-4C8B-9E11-2F6A7C3D0017';

/** Waits for a condition the daemon brings about (the test's own timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; ; i++) {
    if (await check()) return;
    if (i > 200) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const serverUrl = (stdout: string) => /Server: {2}(http:\/\/\S+\/api\/v1)/.exec(stdout)![1]!;

/** A PATH with node and the system's tools and no `spacesync`, but for `extra` in front. */
const pathWith = (...extra: string[]) => [...extra, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);

/** The bytes of the demo space's one video. */
const VIDEO = (() => {
  const assets = (readFixtureFile(path.join(REPO, 'fixtures/spaces/demo.json')) as { assets?: Array<{ contentType: string; base64?: string }> }).assets ?? [];
  const video = assets.find((a) => a.contentType.startsWith('video/'))!;
  return Buffer.from(video.base64 ?? '', 'base64');
})();

describe('spacesync demo', () => {
  it('serves the sample space, syncs it into DIR, brings a remote change to the file, and stops cleanly on Ctrl-C; a second run goes on', async () => {
    const root = path.join(tempDir(), 'demo-space');
    // Run from the clone, as `npm start` does: no `spacesync` on the PATH.
    const first = spawnCli(['demo', root], { env: { PATH: pathWith() } });
    await first.waitFor(/Pulled: \d+ new/);
    const out = first.output().stdout;
    expect(out).toContain(`Files:   ${root}`);
    expect(out).toContain(`Status:  npx spacesync status --dir ${root}   (in another terminal)`);
    // Every asset of the sample space has its bytes: the video is a file, and nothing warns.
    const video = path.join(root, 'Work', 'Projects', 'Mobile app.assets', 'video-ED1A0063.mp4');
    expect(VIDEO.length).toBeGreaterThan(0);
    expect(fs.readFileSync(video)).toEqual(VIDEO);
    expect(fs.readFileSync(path.join(root, 'Work', 'Projects', 'Mobile app.md'), 'utf8')).toContain('](<Mobile app.assets/video-ED1A0063.mp4>)');
    expect(first.output().stderr).toBe('');
    expect(out).not.toMatch(/warning|404/);
    expect(out).toMatch(/curl -X PUT '.*\/blocks' -H 'Content-Type: application\/json'/);
    expect(out).toContain('Ctrl-C stops the server and the sync');
    const url = serverUrl(out);
    expect(fs.readFileSync(path.join(root, QUICK_IDEA), 'utf8')).toContain('What if daily notes could pull in open t');
    expect(fs.statSync(path.join(root, '.spacesync', 'config.json')).mode & 0o777).toBe(0o600);

    // A second demo on the same folder is refused before it writes the config or prints a banner.
    const config = fs.readFileSync(path.join(root, '.spacesync', 'config.json'), 'utf8');
    const again = await runCli(['demo', root]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already being synced by another spacesync \(pid \d+/);
    expect(again.stdout).not.toContain('Server:');
    expect(fs.readFileSync(path.join(root, '.spacesync', 'config.json'), 'utf8')).toBe(config);

    // The change the intro suggests, made in the space through the printed link.
    const put = await fetch(`${url}/blocks`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocks: [{ id: BLOCK, markdown: 'Changed in the space' }] }),
    });
    expect(put.status).toBe(200);
    await until(() => fs.readFileSync(path.join(root, QUICK_IDEA), 'utf8').includes('Changed in the space'), 'the file to change');

    first.child.kill('SIGINT');
    const ended = await first.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toMatch(/spacesync: stopped\.\nspacesync demo: the server is stopped\./);
    expect(fs.existsSync(path.join(root, '.spacesync', 'lock'))).toBe(false);
    await expect(fetch(`${url}/connection`)).rejects.toThrow();

    // `status` on the stopped demo's folder advises the demo, which brings its server: `sync` could not reach it.
    const status = await runCli(['status', '--dir', root], { env: { PATH: pathWith() } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(
      `not running; this is the demo's folder, whose server runs only with the demo: start both with \`npx spacesync demo ${root}\``,
    );
    expect(status.stdout).not.toContain('spacesync sync --dir');
    expect(JSON.parse((await runCli(['status', '--dir', root, '--json'], { env: { PATH: pathWith() } })).stdout).demoStart).toBe(`npx spacesync demo ${root}`);

    // The demo space was kept: the next run serves the changed block and leaves the file as it is.
    const before = fs.readFileSync(path.join(root, QUICK_IDEA), 'utf8');
    const second = spawnCli(['demo', root]);
    await second.waitFor(/Ctrl-C stops\.\n/);
    const url2 = serverUrl(second.output().stdout);
    const read = await fetch(`${url2}/blocks?id=${DOC}`, { headers: { accept: 'text/markdown' } });
    expect(await read.text()).toContain('Changed in the space');
    second.child.kill('SIGTERM');
    expect((await second.done).code).toBe(0);
    expect(fs.readFileSync(path.join(root, QUICK_IDEA), 'utf8')).toBe(before);
  });

  it('names the command `spacesync` when that name on the PATH is this program, as after a global install', async () => {
    const tmp = tempDir();
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(SPAWN_BIN, path.join(bin, 'spacesync'));
    const root = path.join(tmp, 'demo-space');
    const demo = spawnCli(['demo', root], { cwd: tmp, env: { PATH: pathWith(bin) } });
    try {
      await demo.waitFor(/Ctrl-C stops\.\n/);
      expect(demo.output().stdout).toContain(`Status:  spacesync status --dir ${root}   (in another terminal)`);
    } finally {
      demo.child.kill('SIGINT');
      expect((await demo.done).code).toBe(0);
    }
  });

  it('refuses a folder holding other files, or one synced with a space, and writes nothing there', async () => {
    const busy = tempDir();
    fs.writeFileSync(path.join(busy, 'mine.txt'), 'x');
    const r = await runCli(['demo', busy]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not empty, and the demo would write its sample files among yours/);
    expect(fs.readdirSync(busy)).toEqual(['mine.txt']);

    const synced = tempDir();
    writeConfig(synced, { link: 'https://space.example/links/REALSPACE1234/api/v1' });
    const s = await runCli(['demo', synced]);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/already synced with a space, so the demo left it alone/);
    expect(JSON.parse(fs.readFileSync(path.join(synced, '.spacesync', 'config.json'), 'utf8')).link).toContain('REALSPACE1234');
  });
});
