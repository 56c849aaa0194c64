// An idle cycle is the two listing requests and nothing else: no file read, no listing, counts or
// file stats written again to the journal.
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { SyncSession } from '../../src/sync/index.js';
import { syncOnce } from '../../src/sync/cycle/syncOnce.js';
import { demoSpace } from '../pull/demoSpace.js';
import { describeRequests, usePulledMirror, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));

it('an idle cycle sends the two listings, reads no file and rewrites nothing in the journal', async () => {
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
    expect(describeRequests(await space.requests()).sort()).toEqual(['GET /documents?fetchMetadata=true', 'GET /folders']);
    expect(db.prepare('SELECT what FROM rewrites').all()).toEqual([]);
  } finally {
    db.close();
  }
});
