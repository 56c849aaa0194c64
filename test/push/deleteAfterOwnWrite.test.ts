// A file edited here, pushed, then deleted before any pull read the document back: the listing shows
// the document changed (by the push itself), but it holds just what the push sent, so the delete
// goes out; it is not taken for an edit in the space that brings the file back.
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pushLocal } from '../../src/sync/index.js';
import { closeWorld, openWorld, writesOf, type World } from './pushHarness.js';

let w: World;
beforeEach(async () => {
  w = await openWorld();
});
afterEach(async () => {
  await closeWorld(w);
});

it('deleted after its own push: trashed, not restored', async () => {
  fs.writeFileSync(w.file('Unsorted/Note.md'), w.read('Unsorted/Note.md').replace('second paragraph', 'second, edited'));
  expect((await pushLocal(w.session.ctx, { listingMaxAgeMs: 0 })).outcome?.failed).toEqual([]);
  fs.unlinkSync(w.file('Unsorted/Note.md'));
  await w.space.clearRequests();
  const r = await pushLocal(w.session.ctx, { listingMaxAgeMs: 0 });
  expect(r.plan.tasks.map((t) => [t.doc, t.decision.trash ?? false, t.decision.rewrite ?? false])).toEqual([['D-NOTE', true, false]]);
  expect(await writesOf(w.space)).toEqual(['DELETE /documents']);
});

it('deleted here while the space edited it: the edit wins and the file comes back', async () => {
  fs.unlinkSync(w.file('Unsorted/Note.md'));
  await w.space.call('PUT', '/blocks', { blocks: [{ id: 'N2', markdown: 'edited in the space' }] });
  await w.space.clearRequests();
  const r = await pushLocal(w.session.ctx, { listingMaxAgeMs: 0 });
  expect(r.plan.tasks.map((t) => [t.doc, t.decision.trash ?? false, t.decision.rewrite ?? false])).toEqual([['D-NOTE', false, true]]);
  expect(await writesOf(w.space)).toEqual([]);
});
