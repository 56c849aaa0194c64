// `spacesync sync` as a user runs it: exit codes of the contract, messages that say what to do,
// the link never printed or logged whole, --dry-run changing nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSpace } from '../pull/demoSpace.js';
import { describeRequests, expectMirrorMatches, makeRoot, readTree, startSpace, type Space } from '../pull/harness.js';
import { spawnCli } from './spawnCli.js';

let space: Space;
const roots: string[] = [];
const newRoot = () => {
  const r = makeRoot();
  roots.push(r);
  return r;
};

beforeAll(async () => {
  space = await startSpace(demoSpace);
});
afterAll(async () => {
  await space.close();
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

const sync = (root: string, ...args: string[]) => spawnCli(['sync', '--dir', root, ...args], { SPACESYNC_LINK: space.server.baseUrl }).done;

describe('spacesync sync', () => {
  it('--once pulls the space, exits 0, logs JSON lines without the link; a second run pulls nothing', async () => {
    const root = newRoot();
    const first = await sync(root, '--once');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // The documents already in the space's trash were not deleted now: a first pull says where they are.
    expect(first.stdout).toMatch(/^Pulled: 15 new, \d+ new folders, 1 in the space's trash \(\d+ requests\): .+ and \d+ more \(new\), /m);
    await expectMirrorMatches(root, space);
    const log = fs.readFileSync(path.join(root, '.spacesync/logs/spacesync.log'), 'utf8');
    expect(
      log
        .split('\n')
        .filter(Boolean)
        .every((l) => JSON.parse(l) !== null),
    ).toBe(true);
    expect(log).toContain('cycle done');
    expect(log).not.toContain(space.server.linkId);

    await space.clearRequests();
    const second = await sync(root, '--once');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('In step with the space: nothing to pull (4 requests).\n');
    expect(describeRequests(await space.requests())).toEqual([
      'GET /documents?fetchMetadata=true',
      'GET /folders',
      'GET /tasks?scope=inbox',
      'GET /tasks?scope=logbook',
    ]);
  });

  it('--dry-run lists what the pull would do and writes nothing, not even its own folder', async () => {
    const root = newRoot();
    const r = await sync(root, '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Dry run: nothing was changed');
    expect(r.stdout).toMatch(/^Would write files \(\d+\):$/m);
    expect(r.stdout).toContain('  Projects/Roadmap.md');
    expect(r.stdout).toContain('Would create folders (');
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('refuses a missing folder with exit 2 and says what to do; --force creates it', async () => {
    const root = path.join(newRoot(), 'not-there');
    const r = await sync(root, '--once');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not exist.*Create it, pass the right --dir, or run again with --force/);
    expect(fs.existsSync(root)).toBe(false);
    const forced = await sync(root, '--once', '--force');
    expect(forced.code).toBe(0);
    expect(fs.existsSync(path.join(root, 'Projects/Roadmap.md'))).toBe(true);
  });

  it('refuses with exit 2 when the space suddenly lists nothing, and changes nothing', async () => {
    const root = newRoot();
    const empty = await startSpace({ version: 1, space: { id: 'S-EMPTY', name: 'Empty' } });
    try {
      const first = await sync(root, '--once');
      expect(first.code).toBe(0);
      const before = readTree(root);
      const r = await spawnCli(['sync', '--dir', root, '--once'], { SPACESYNC_LINK: empty.server.baseUrl }).done;
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/lists no documents at all.*Nothing was changed.*--force/s);
      expect([...readTree(root).keys()]).toEqual([...before.keys()]);
    } finally {
      await empty.close();
    }
  });

  it('fails with exit 1 on an unknown link, saying what to do and never printing the link', async () => {
    const root = newRoot();
    const wrong = space.server.baseUrl.replace(space.server.linkId, 'WRONGLINKID123456');
    const r = await spawnCli(['sync', '--dir', root, '--once', '--link', wrong]).done;
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('WRONGLINKID123456');
    expect(r.stderr).toMatch(/connection link.*Create a new connection link/);
    expect(r.stdout + r.stderr).not.toContain(space.server.linkId);
  });

  it('without a link it says where to put one', async () => {
    const r = await spawnCli(['sync', '--dir', newRoot(), '--once']).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No connection link.*--link URL.*SPACESYNC_LINK/);
  });

  it('without --once keeps pulling on the poll interval and stops cleanly on SIGTERM', async () => {
    const root = newRoot();
    fs.mkdirSync(path.join(root, '.spacesync'));
    fs.writeFileSync(path.join(root, '.spacesync/config.json'), JSON.stringify({ poll: { minSeconds: 1, maxSeconds: 1 } }));
    const run = spawnCli(['sync', '--dir', root], { SPACESYNC_LINK: space.server.baseUrl });
    const waitFor = async (check: () => boolean) => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(check()).toBe(true);
    };
    const diary = path.join(root, 'Personal/Diary.md');
    await waitFor(() => fs.existsSync(diary));
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-DIARY', markdown: 'written while the daemon ran' }] });
    await waitFor(() => fs.readFileSync(diary, 'utf8').includes('written while the daemon ran'));
    run.child.kill('SIGTERM');
    const done = await run.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`spacesync: syncing ${space.server.origin}/links/${space.server.linkId.slice(0, 4)}…/api/v1 into `);
    expect(done.stdout).toContain('spacesync: stopped.');
    expect(done.stdout + done.stderr).not.toContain(space.server.linkId);
    expect(fs.existsSync(path.join(root, '.spacesync/lock'))).toBe(false);
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-DIARY', markdown: 'dear diary' }] });
  });
});

describe('spacesync sync --once and what follows a cycle', () => {
  it('with git.autoCommit commits the files it wrote, and saves the counters status shows', async () => {
    const root = newRoot();
    fs.mkdirSync(path.join(root, '.spacesync'), { recursive: true });
    fs.writeFileSync(path.join(root, '.spacesync/config.json'), JSON.stringify({ git: { autoCommit: true } }));
    const r = await sync(root, '--once');
    expect(r.code).toBe(0);
    const { execFileSync } = await import('node:child_process');
    const log = execFileSync('git', ['log', '--format=%B'], { cwd: root, encoding: 'utf8' });
    expect(log).toContain('Roadmap');
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' });
    expect(tracked).toContain('Projects/Roadmap.md');
    expect(tracked).not.toContain('.spacesync');

    const status = await spawnCli(['status', '--dir', root, '--json'], {}).done;
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(JSON.stringify(s)).not.toContain(space.server.linkId);
    // The counters of the run just done: at least the two listings and one read per document.
    expect(s.requests.requests).toBeGreaterThanOrEqual(18);
    expect(s.requests.rateLimited).toBe(0);

    // Nothing changed: no second commit.
    const again = await sync(root, '--once');
    expect(again.code).toBe(0);
    expect(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()).toBe('1');
  });
});
