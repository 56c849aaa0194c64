// A local edit reaches the service with the fewest requests: a one-block edit is one PUT with one block.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SyncSession } from '../../src/sync/index.js';
import { pushLocal } from '../../src/sync/push/pushLocal.js';
import { demoSpace } from '../pull/demoSpace.js';
import { describeRequests, usePulledMirror, type Space } from '../pull/harness.js';

let space: Space;
let root: string;
let session: SyncSession;

usePulledMirror(demoSpace, (m) => ({ space, root, session } = m));

it('a one-block edit is one PUT /blocks with one block', async () => {
  const file = path.join(root, 'Unsorted/Unsorted note.md');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('hello world', 'hello from my editor'));
  await space.clearRequests();
  // The pull's listing stays the push's however slow the machine (by default it is read again after 3 s).
  const r = await pushLocal(session.ctx, { listingMaxAgeMs: 60_000 });
  expect(r.outcome?.failed).toEqual([]);
  const log = await space.requests();
  expect(describeRequests(log)).toEqual(['PUT /blocks']);
  const doc = await space.call('GET', '/blocks', undefined, { id: 'D-UNS' });
  expect(doc.content[0].markdown).toBe('hello from my editor');
  await space.clearRequests();
  const again = await pushLocal(session.ctx);
  expect(again.requests).toBe(0);
});
