// A local edit reaches the service with the fewest requests: a one-block edit is one PUT with one block.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runPull, type SyncSession } from '../../src/sync/index.js';
import { pushLocal } from '../../src/sync/index.js';
import { demoSpace } from '../pull/demoSpace.js';
import { describeRequests, makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
let session: SyncSession;
/**
 * The sync's clock, still: a push reads the space again before writing when its listing is over a
 * second old (executePlan's RECHECK_AFTER_MS), and on a loaded machine a second can pass between
 * the pull and the push. What is measured here is the edit's requests, not the machine's speed.
 */
let now = Date.parse('2026-09-05T10:00:00Z');

beforeEach(async () => {
  space = await startSpace(demoSpace);
  root = makeRoot();
  session = await openSession(root, space, { now: () => new Date(now) });
  await runPull(session.ctx);
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('a one-block edit is one PUT /blocks with one block', async () => {
  const file = path.join(root, 'Unsorted/Unsorted note.md');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('hello world', 'hello from my editor'));
  await space.clearRequests();
  const r = await pushLocal(session.ctx, { listingMaxAgeMs: 60_000 });
  expect(r.outcome?.failed).toEqual([]);
  const log = await space.requests();
  expect(describeRequests(log)).toEqual(['PUT /blocks']);
  const doc = await space.call('GET', '/blocks', undefined, { id: 'D-UNS' });
  expect(doc.content[0].markdown).toBe('hello from my editor');
  await space.clearRequests();
  now += 1_000;
  const again = await pushLocal(session.ctx);
  expect(again.requests).toBe(0);
});

it('the same edit made more than a second after the listing reads the space again first (it may have changed since)', async () => {
  const file = path.join(root, 'Unsorted/Unsorted note.md');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('hello world', 'hello from my editor'));
  await space.clearRequests();
  now += 1_500;
  const r = await pushLocal(session.ctx, { listingMaxAgeMs: 60_000 });
  expect(r.outcome?.failed).toEqual([]);
  expect(describeRequests(await space.requests())).toEqual(['GET /documents?fetchMetadata=true', 'PUT /blocks']);
});
