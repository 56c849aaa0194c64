// An idle cycle is the two listing requests and the inbox's (the task files) and nothing else: no file read, no listing, counts or
// file stats written again to the journal. A poll whose last complete listing is recent asks only
// for the documents modified since yesterday, and falls back to the full listing for anything else.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SyncSession } from '../../src/sync/index.js';
import { syncOnce, type SyncOnceResult } from '../../src/sync/cycle/syncOnce.js';
import { demoSpace } from '../pull/demoSpace.js';
import { describeRequests, expectMirrorMatches, usePulledMirror, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));

it('an idle cycle over the whole mirror sends the two listings and the two task lists, reads no file and rewrites nothing in the journal', async () => {
  // The clock 10 s ahead: the files just pulled are past the stat cache's racy window.
  session.ctx.now = () => new Date(Date.now() + 10_000);
  await syncOnce(session.ctx); // a full cycle records the listing, the counts and every file's stat
  // Another connection counts every row the journal writes into the listing, the counts and the stat cache.
  const db = new Database(path.join(root, '.spacesync', 'journal.db'));
  db.exec(`
    CREATE TABLE IF NOT EXISTS rewrites (what TEXT);
    CREATE TRIGGER listing_rewritten AFTER INSERT ON listing BEGIN INSERT INTO rewrites VALUES ('listing'); END;
    CREATE TRIGGER stats_rewritten AFTER INSERT ON file_stats BEGIN INSERT INTO rewrites VALUES ('file_stats'); END;
    CREATE TRIGGER counts_rewritten AFTER UPDATE ON state WHEN new.key = 'pull.counts' BEGIN INSERT INTO rewrites VALUES ('counts'); END;
  `);
  try {
    await space.clearRequests();
    const r = await syncOnce(session.ctx);
    expect(r.exitCode).toBe(0);
    expect(r.push.requests).toBe(0);
    // The logbook too: a cycle over the whole mirror catches a task added and closed between two polls.
    expect(describeRequests(await space.requests()).sort()).toEqual([
      'GET /documents?fetchMetadata=true',
      'GET /folders',
      'GET /tasks?scope=inbox',
      'GET /tasks?scope=logbook',
    ]);
    expect(db.prepare('SELECT what FROM rewrites').all()).toEqual([]);
  } finally {
    db.close();
  }
});

describe('a poll asks only for the documents modified since yesterday while the last complete listing is recent', () => {
  const RECENT = 'GET /documents?fetchMetadata=true&lastModifiedDateGte=yesterday';
  const FULL = 'GET /documents?fetchMetadata=true';
  const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

  /** One poll cycle (the watcher named no file), with the requests it sent. */
  async function poll() {
    await space.clearRequests();
    const r = await syncOnce(session.ctx, { paths: [] });
    return { r, requests: describeRequests(await space.requests()) };
  }

  beforeEach(async () => {
    // The clock 10 s ahead: the files just pulled are past the stat cache's racy window.
    session.ctx.now = () => new Date(Date.now() + 10_000);
    await syncOnce(session.ctx); // a full cycle that applies every change: its listing is the complete one polls compare with
  });

  it('an idle poll sends three requests (two listings, the inbox) and writes nothing to the journal', async () => {
    const db = new Database(path.join(root, '.spacesync', 'journal.db'), { readonly: true });
    const files = () => ['journal.db', 'journal.db-wal'].map((f) => fs.statSync(path.join(root, '.spacesync', f), { throwIfNoEntry: false })?.mtimeMs);
    try {
      const version = db.pragma('data_version', { simple: true });
      const before = files();
      const { r, requests } = await poll();
      expect(requests).toEqual([RECENT, 'GET /folders', 'GET /tasks?scope=inbox']);
      expect(r.pull?.quiet).toBe(true);
      expect(r.tasks?.quiet).toBe(true);
      expect(r.pull?.listing).toBe('recent');
      expect(db.pragma('data_version', { simple: true })).toBe(version);
      expect(files()).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('a remote edit of a known document reaches its file through the filtered listing', async () => {
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-P', markdown: 'Ship the **pull** engine' }] });
    const { r, requests } = await poll();
    expect(requests).toEqual(['GET /blocks?id=D-ROAD', RECENT, 'GET /folders', 'GET /tasks?scope=inbox']);
    expect(r.pull?.written).toEqual([{ id: 'D-ROAD', path: 'Projects/Roadmap.md', mode: 'splice' }]);
    expect(read('Projects/Roadmap.md')).toContain('Ship the **pull** engine');
    // Applied whole: the next poll finds nothing new.
    expect((await poll()).r.pull?.quiet).toBe(true);
    await expectMirrorMatches(root, space);
  });

  it('a change the cycle left unapplied (a file changed here too) is not taken as seen: the next poll lists everything again', async () => {
    fs.writeFileSync(path.join(root, 'Projects/Roadmap.md'), `${read('Projects/Roadmap.md')}\nadded here, no watcher event\n`);
    await space.call('PUT', '/blocks', { blocks: [{ id: 'B-P', markdown: 'Ship the **pull** engine' }] });
    const first = await poll();
    expect(first.r.pull?.localPending.map((p) => p.id)).toEqual(['D-ROAD']);
    const next = await poll();
    expect(next.r.pull?.quiet).toBe(false);
    expect(next.requests).toContain(FULL);
  });

  it.each([
    [
      'a new document',
      () => space.call('POST', '/documents', { documents: [{ title: 'Fresh' }] }),
      (r: SyncOnceResult) => r.pull!.written.some((w) => w.path === 'Unsorted/Fresh.md'),
    ],
    [
      'a trashed document',
      () => space.call('DELETE', '/documents', { documentIds: ['D-UNS'] }),
      (r: SyncOnceResult) => r.pull!.moved.some((m) => m.to === 'Trash/Unsorted note.md'),
    ],
    [
      'a purge',
      async () => {
        space.clock.t += 31 * 24 * 3600 * 1000; // the server purges trash older than 30 days
      },
      (r: SyncOnceResult) => r.pull!.purged.some((p) => p.id === 'D-TRASH'),
    ],
  ])('%s falls back to the full listing in the same cycle', async (_, change, applied) => {
    await change();
    const { r, requests } = await poll();
    expect(requests).toContain(RECENT);
    expect(requests).toContain(FULL);
    expect(applied(r)).toBe(true);
    await expectMirrorMatches(root, space);
  });

  it('a new document whose arrival keeps every count (one trashed, one purged meanwhile) is found by its id', async () => {
    space.clock.t += 31 * 24 * 3600 * 1000; // the next request purges D-TRASH (trash -1)
    await space.call('POST', '/documents', { documents: [{ title: 'Fresh' }] }); // unsorted +1
    await space.call('DELETE', '/documents', { documentIds: ['D-UNS'] }); // unsorted -1, trash +1
    const { r, requests } = await poll();
    expect(requests).toContain(FULL);
    expect(r.pull!.written.map((w) => w.path)).toContain('Unsorted/Fresh.md');
    await expectMirrorMatches(root, space);
  });

  it('a complete listing older than the window is not compared with: the poll lists every document', async () => {
    session.ctx.settings = { ...session.ctx.settings, fullScanMinutes: 48 * 60 }; // no full scan due meanwhile
    session.ctx.now = () => new Date(Date.now() + 10_000 + 21 * 3_600_000);
    const { r, requests } = await poll();
    expect(requests).toContain(FULL);
    expect(requests).not.toContain(RECENT);
    expect(r.pull?.listing).toBe('full');
  });
});
