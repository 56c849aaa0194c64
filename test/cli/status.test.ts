// `spacesync status` as a user runs it, on a mirror synced from the real server: what it says about
// the daemon, the last cycle, changes waiting on either side, conflicts, requests and errors.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/index.js';
import { recordStatusError, saveDaemonStats } from '../../src/journal/daemonStatus.js';
import { createClient } from '../../src/client/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { linkIdOf, runCli, tempDir, useSyncedMirror, writeConfig } from './cliHarness.js';

let server: RunningServer;
/** One mirror synced by `sync --once`, copied for each test that changes it. */
let synced: string;
useSyncedMirror((m) => ({ server, synced } = m));

const journalOf = (root: string) => path.join(root, '.spacesync', 'journal.db');

/** A copy of the mirror synced once, as a user would: a config, then sync --once. */
async function syncedMirror(): Promise<string> {
  const root = tempDir();
  fs.cpSync(synced, root, { recursive: true });
  return root;
}

async function status(root: string, json = false) {
  const r = await runCli(['status', '--dir', root, ...(json ? ['--json'] : [])]);
  expect(r.stdout + r.stderr).not.toContain(linkIdOf(server.baseUrl));
  return r;
}

describe('spacesync status', () => {
  it('a folder that is not a mirror, or no folder at all: exit 1 and how to set one up', async () => {
    const plain = tempDir();
    const r = await status(plain);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${plain} is not a spacesync folder`);
    expect(r.stderr).toContain(`spacesync init ${plain} --link URL`);
    const gone = await status(path.join(plain, 'nope'));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/does not exist .*--dir/);
    expect(fs.existsSync(path.join(plain, '.spacesync'))).toBe(false);
  });

  it('a broken config is named with what to fix', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl, poll: { minSeconds: 'often' } });
    const r = await status(root);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/poll\.minSeconds: must be number/);
  });

  it('set up but never synced: says so and what to run', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl });
    const r = await status(root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/last cycle\s+never: run `spacesync sync --dir .* --once`/);
    expect(r.stdout).toMatch(/daemon\s+not running/);
    const j = JSON.parse((await status(root, true)).stdout);
    expect(j).toMatchObject({ dir: root, lastCycle: null, pendingLocal: [], pendingRemote: [], listedAt: null, conflicts: 0, requests: null, errors: [] });
    expect(j.link).toMatch(/\/links\/.{4}…\/api\/v1$/);
  });

  it('after a cycle: in step; then every kind of local change is listed, by content and not by mtime', async () => {
    const root = await syncedMirror();
    const clean = JSON.parse((await status(root, true)).stdout);
    expect(clean.lastCycle.at).toEqual(expect.any(String));
    expect(clean).toMatchObject({ documents: 2, pendingLocal: [], pendingRemote: [], conflicts: 0 });
    expect((await status(root)).stdout).toMatch(/local changes\s+none waiting/);

    const road = path.join(root, 'Projects', 'Roadmap.md');
    fs.utimesSync(road, new Date(2030, 0, 1), new Date(2030, 0, 1)); // a touch is not a change
    expect(JSON.parse((await status(root, true)).stdout).pendingLocal).toEqual([]);

    fs.appendFileSync(road, '\nA new paragraph\n');
    fs.writeFileSync(path.join(root, 'Projects', 'Fresh idea.md'), 'just typed\n');
    fs.mkdirSync(path.join(root, 'Archive'));
    fs.renameSync(path.join(root, 'Unsorted', 'Inbox note.md'), path.join(root, 'Archive', 'Inbox note.md'));
    fs.writeFileSync(path.join(root, 'Projects', 'photo.png'), 'not a document');
    fs.writeFileSync(path.join(root, 'Projects', 'Roadmap (conflict 2026-11-21 093005).md'), 'a conflict copy is never synced');
    const j = JSON.parse((await status(root, true)).stdout);
    expect(j.pendingLocal).toEqual([
      { path: 'Archive/Inbox note.md', change: 'moved', from: 'Unsorted/Inbox note.md', docId: 'D-NOTE' },
      { path: 'Projects/Fresh idea.md', change: 'new' },
      { path: 'Projects/Roadmap.md', change: 'edited', docId: 'D-ROAD' },
    ]);
    expect(j.otherFiles).toBe(1);
    fs.rmSync(path.join(root, 'Archive', 'Inbox note.md'));
    const human = (await status(root)).stdout;
    expect(human).toMatch(/local changes\s+3 files changed here, not yet in the space:/);
    expect(human).toMatch(/Unsorted\/Inbox note\.md \(deleted\)/);
    expect(human).toMatch(/Projects\/Roadmap\.md \(edited\)/);
    expect(human).toMatch(/not synced\s+1 file that is not \.md/);
  });

  it('counts the assets beside the documents and the large binaries (a hint towards git LFS); symbolic links are not followed', async () => {
    const root = await syncedMirror();
    fs.mkdirSync(path.join(root, 'Projects', 'Roadmap.assets'));
    fs.writeFileSync(path.join(root, 'Projects', 'Roadmap.assets', 'a.png'), Buffer.alloc(3000));
    fs.writeFileSync(path.join(root, 'Projects', 'Roadmap.assets', 'b.pdf'), Buffer.alloc(2000));
    fs.symlinkSync('/etc/hostname', path.join(root, 'Projects', 'Roadmap.assets', 'link.png'));
    fs.symlinkSync('/etc', path.join(root, 'Linked'));
    // Sparse: 12 MiB on paper, nothing on the disk.
    fs.closeSync(fs.openSync(path.join(root, 'Projects', 'talk.mp4'), 'w'));
    fs.truncateSync(path.join(root, 'Projects', 'talk.mp4'), 12 * 1024 * 1024);
    const j = JSON.parse((await status(root, true)).stdout);
    expect(j.assets).toEqual({ files: 2, bytes: 5000, large: { files: 1, bytes: 12 * 1024 * 1024, thresholdMiB: 10, paths: ['Projects/talk.mp4'] } });
    const human = (await status(root)).stdout;
    expect(human).toMatch(/assets\s+2 files beside the documents \(\.assets folders\), 5 KiB/);
    expect(human).toMatch(/large files\s+1 file of 10 MiB or more, 12\.0 MiB: .*git LFS/);
    expect(human).toContain('Projects/talk.mp4');
    expect(human).toMatch(/not synced\s+1 file that is not \.md/);
    // A link is counted as a link, not as a file or a folder.
    expect(j.links).toEqual(['Linked']);
    expect(human).toMatch(/links\s+1 symbolic link, never followed nor written through/);
  });

  it('counts the assets waiting for their download: failed ones with the time of the next try, too-large ones apart', async () => {
    const root = await syncedMirror();
    const journal = openJournal(journalOf(root));
    try {
      const retry = (failures: number, notBefore: string) => ({ url: 'http://x/assets/A', failures, notBefore, message: 'the service answered 500' });
      journal.setState('media-retry:B1', retry(1, '2026-09-05T10:01:00.000Z'));
      journal.setState('media-retry:B2', retry(3, '2026-09-05T10:04:00.000Z'));
      journal.setState('media-retry:B3', { ...retry(1, '2026-09-05T10:01:00.000Z'), tooLarge: { size: 300_000_000, maxMiB: 100 } });
    } finally {
      journal.close();
    }
    const j = JSON.parse((await status(root, true)).stdout);
    expect(j.assetDownloads).toEqual({ retrying: 2, nextTryAt: '2026-09-05T10:01:00.000Z', tooLarge: 1 });
    const human = (await status(root)).stdout;
    expect(human).toMatch(/downloads\s+2 assets whose download failed, tried again from .*; 1 asset over assets\.maxMiB \(raise it to download\)/);
  });

  it('lists a local change as the next push takes it: of two files naming a moved document, the likeliest is it moved', async () => {
    const root = await syncedMirror();
    const note = fs.readFileSync(path.join(root, 'Unsorted', 'Inbox note.md'), 'utf8');
    fs.mkdirSync(path.join(root, 'Archive'));
    fs.writeFileSync(path.join(root, 'Archive', 'A copy.md'), note);
    fs.renameSync(path.join(root, 'Unsorted', 'Inbox note.md'), path.join(root, 'Archive', 'Inbox note.md'));
    expect(JSON.parse((await status(root, true)).stdout).pendingLocal).toEqual([
      { path: 'Archive/A copy.md', change: 'new' },
      { path: 'Archive/Inbox note.md', change: 'moved', from: 'Unsorted/Inbox note.md', docId: 'D-NOTE' },
    ]);
    // The push reads the mirror by the same rule: the document is moved where status said.
    expect((await runCli(['sync', '--dir', root, '--once'])).code).toBe(0);
    const journal = openJournal(journalOf(root));
    try {
      expect(journal.getDocument('D-NOTE')?.path).toBe('Archive/Inbox note.md');
    } finally {
      journal.close();
    }
    expect(JSON.parse((await status(root, true)).stdout).pendingLocal).toEqual([]);
  });

  it('remote changes come from the last listing against the base; counters, errors, conflicts and the daemon from the journal and the lock', async () => {
    const root = await syncedMirror();
    // What a cycle leaves when it listed changes it could not pull yet, and what a daemon records.
    const journal = openJournal(journalOf(root));
    const listing = journal.readListing()!;
    listing.items.set('D-ROAD', { ...listing.items.get('D-ROAD')!, lastModifiedAt: '2030-01-01T00:00:00.000Z' });
    listing.items.set('D-NEW', { title: 'Brand new', lastModifiedAt: '2030-01-01T00:00:00.000Z' });
    listing.items.delete('D-NOTE');
    journal.replaceListing(listing.takenAt, listing.items);
    const now = new Date();
    saveDaemonStats(journal, {
      stats: {
        total: 153,
        rateLimited: 2,
        retries: 3,
        blocksSpent: 4000,
        errors: { network: 1 },
        budgets: {
          space: { used: 12, limit: 100, windowMs: 60_000 },
          address: { used: 4, limit: 50, windowMs: 10_000 },
          blocks: { used: 340, limit: 20_000, windowMs: 60_000 },
        },
      },
      startedAt: new Date(now.getTime() - 3_600_000).toISOString(),
      now,
      pid: process.pid,
    });
    recordStatusError(journal, {
      at: now,
      code: 'network',
      message: `Could not reach the service at ${server.baseUrl}/documents. Check the network connection.`,
    });
    journal.addConflict({ docId: 'D-ROAD', path: 'Projects/Roadmap.md', copyPath: 'Projects/Roadmap (conflict 2026-11-21 093005).md', details: {} });
    journal.close();
    fs.writeFileSync(path.join(root, '.spacesync', 'lock'), JSON.stringify({ pid: process.pid, hostname: os.hostname(), startedAt: now.toISOString() }));

    const j = JSON.parse((await status(root, true)).stdout);
    expect(j.pendingRemote).toEqual([
      { id: 'D-NEW', title: 'Brand new', change: 'new' },
      { id: 'D-ROAD', title: 'Roadmap', path: 'Projects/Roadmap.md', change: 'changed' },
      { id: 'D-NOTE', title: 'Inbox note', path: 'Unsorted/Inbox note.md', change: 'removed' },
    ]);
    expect(j.conflicts).toBe(1);
    expect(j.daemon).toMatchObject({ running: true, pid: process.pid });
    expect(j.requests).toMatchObject({ requests: 153, rateLimited: 2, lastMinute: { requests: 12, requestLimit: 100, blocks: 340, blockLimit: 20_000 } });
    expect(j.errors).toEqual([expect.objectContaining({ code: 'network' })]);

    const human = (await status(root)).stdout;
    expect(human).toMatch(new RegExp(`daemon\\s+running \\(pid ${process.pid}`));
    expect(human).toMatch(/remote changes\s+3 documents changed in the space, not yet here/);
    expect(human).toMatch(/Projects\/Roadmap\.md \(changed\)/);
    expect(human).toMatch(/Brand new \(new\)/);
    expect(human).toMatch(/conflicts\s+1: see them with `spacesync conflicts --dir /);
    expect(human).toMatch(
      /requests\s+12\/100 requests and 340\/20000 blocks in the last minute \(as of (just now|\d+ s ago)\); 153 since .*, 2 answers 429 \(rate limited\), 3 retries/,
    );
    expect(human).toMatch(
      /errors\s+1 recent error, newest last:\n\s+.* network: Could not reach the service at .*\/links\/.{4}…\/api\/v1\/documents\. Check the network connection\./,
    );
  });

  it("shows what a real client's counters say, as the daemon saves them", async () => {
    const root = await syncedMirror();
    const client = createClient({ link: server.baseUrl });
    await client.getConnection();
    await client.listDocuments();
    const journal = openJournal(journalOf(root));
    saveDaemonStats(journal, { stats: client.stats(), startedAt: new Date().toISOString(), now: new Date() });
    journal.close();
    client.close();
    const j = JSON.parse((await status(root, true)).stdout);
    expect(j.requests).toMatchObject({ requests: 2, rateLimited: 0, errors: {}, lastMinute: { requests: 2, requestLimit: 100, blockLimit: 20_000 } });
  });

  it('a lock whose process is gone is shown as stale, not as a running daemon', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl });
    fs.writeFileSync(
      path.join(root, '.spacesync', 'lock'),
      JSON.stringify({ pid: 2 ** 22 + 17, hostname: os.hostname(), startedAt: new Date().toISOString() }),
    );
    const r = await status(root);
    expect(r.stdout).toMatch(/daemon\s+not running \(a stale lock of pid \d+ is left; the next sync takes it over\)/);
  });

  it("reads beside a daemon that holds the journal's write lock, without waiting for it", async () => {
    const root = await syncedMirror();
    const writer = new Database(journalOf(root));
    writer.prepare('BEGIN IMMEDIATE').run();
    writer.prepare("INSERT INTO state (key, value) VALUES ('x', '1')").run();
    try {
      const r = await status(root, true);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).documents).toBe(2);
    } finally {
      writer.prepare('COMMIT').run();
      writer.close();
    }
  });

  it('a cycle refused by a safety check: said once by sync, then shown by status with what it would delete and the command that goes ahead', async () => {
    const root = await syncedMirror();
    const files = ['Projects/Roadmap.md', 'Unsorted/Inbox note.md'];
    for (const f of files) fs.rmSync(path.join(root, f));
    const sync = await runCli(['sync', '--dir', root, '--once']);
    expect(sync.code).toBe(2);
    expect(sync.stderr.match(/Nothing was changed/g)).toHaveLength(1);

    const text = await status(root);
    expect(text.stdout).toMatch(/refused {9}the cycle of .* was stopped by a safety check; nothing was changed:/);
    expect(text.stdout).toContain('it would have deleted 2 documents:');
    for (const f of files) expect(text.stdout).toContain(`                    ${f}`);
    expect(text.stdout).toContain(`if that is what you want: spacesync approve --deletes --dir ${root}`);
    const json = JSON.parse((await status(root, true)).stdout) as { refused: { reason: string; deletes: string[]; deleteCount: number; proceed: string } };
    expect(json.refused).toMatchObject({ reason: 'root_empty', deletes: files, deleteCount: 2, proceed: `spacesync approve --deletes --dir ${root}` });

    // The files back: the next cycle goes through, and status no longer shows a refusal.
    for (const f of files) fs.cpSync(path.join(synced, f), path.join(root, f));
    expect((await runCli(['sync', '--dir', root, '--once'])).code).toBe(0);
    const after = JSON.parse((await status(root, true)).stdout) as { refused: unknown };
    expect(after.refused).toBeNull();
  });
});
