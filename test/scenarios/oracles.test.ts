// The oracles themselves: each one reports the failure it exists for (a scenario that passes its
// oracles proves something only if the oracles can fail), and the fault the chaos test needs.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../src/server/index.js';
import { checkBudget, checkConvergence, checkIdentity, checkIdempotent, checkJournal, checkNothingLost } from './oracles.js';
import { loadSpace, SCENARIOS_DIR } from './harness.js';
import { World } from './world.js';
import { RECHECK_AFTER_MS } from '../../src/sync/documents/push/executePlan.js';

let w: World;
beforeEach(async () => {
  w = await World.open({ fixture: loadSpace(`${SCENARIOS_DIR}/02-one-side-only`), name: 'oracles' });
});
afterEach(async () => {
  await w.close();
});

const req = (t: number, over: Partial<LoggedRequest> = {}): LoggedRequest => ({
  t,
  receivedAt: t,
  method: 'GET',
  path: '/documents',
  query: {},
  status: 200,
  blocksCharged: 0,
  ...over,
});

describe('the oracles report what they exist for', () => {
  it('hold on a mirror just pulled', async () => {
    await w.admin('POST', '/limits', { mode: 'off' });
    const final = await w.snapshot();
    expect(await checkConvergence(w)).toEqual([]);
    expect(await checkJournal(w, final)).toEqual([]);
    expect(checkIdentity(w, final)).toEqual([]);
    expect(checkNothingLost(w)).toEqual([]);
  });

  it('O2: a file that does not say what the service holds, a document without a file', async () => {
    await w.admin('POST', '/limits', { mode: 'off' });
    fs.writeFileSync(w.file('Unsorted/Note.md'), w.read('Unsorted/Note.md').replace('second paragraph', 'second, unsent'));
    fs.rmSync(w.file('Unsorted/Ideas.md'));
    const failures = await checkConvergence(w);
    expect(failures.join('\n')).toMatch(/Unsorted\/Note\.md: block 1 \(N2\) differs/);
    expect(failures.join('\n')).toMatch(/document D-IDEA \("Ideas"\) has no file/);
  });

  it('O3: an extra cycle that sends something fails', async () => {
    fs.writeFileSync(w.file('Unsorted/Note.md'), w.read('Unsorted/Note.md').replace('second paragraph', 'second, unsent'));
    const failures = await checkIdempotent(w);
    expect(failures.join('\n')).toMatch(/sent writing requests: PUT \/blocks/);
  });

  it('O4: too many requests in a window, a 429 nobody injected, a request before Retry-After', async () => {
    const t0 = w.serverNow();
    w.segments.push({ name: 'a run', start: t0, end: t0 + 10_000, killed: false });
    const windowMs = 60_000 * w.limitScale;
    const burst = Array.from({ length: 101 }, (_, i) => req(t0 + (i * windowMs) / 200));
    expect(checkBudget(w, burst).join('\n')).toMatch(/101 requests within 3000 ms \(limit 100\)/);
    expect(checkBudget(w, [req(t0 + 10, { status: 429 })]).join('\n')).toMatch(/1 answers 429 but 0 injected/);
    w.faults.push({ spec: { kind: '429', retryAfter: 1 }, at: t0, used: 1 });
    const early = [req(t0 + 100, { status: 429 }), req(t0 + 600)];
    expect(checkBudget(w, early).join('\n')).toMatch(/Retry-After 1000 ms .* not honoured: GET \/documents at \+500 ms/);
    expect(checkBudget(w, [req(t0 + 100, { status: 429 }), req(t0 + 1100)])).toEqual([]);
    // In flight when the 429 came (arrived before it), answered late after a delay: not a breach.
    expect(checkBudget(w, [req(t0 + 100, { status: 429 }), req(t0 + 650, { receivedAt: t0 + 60 })])).toEqual([]);
    // A 429 whose answer was logged late (the server's loop busy): the client's wait began when it read
    // the answer, before that; the floor counts from the 429's arrival.
    expect(checkBudget(w, [req(t0 + 140, { status: 429, receivedAt: t0 + 100 }), req(t0 + 1105)])).toEqual([]);
    expect(checkBudget(w, [req(t0 + 140, { status: 429, receivedAt: t0 + 100 }), req(t0 + 1060)]).join('\n')).toMatch(
      /not honoured: GET \/documents at \+920 ms/,
    );
  });

  it("O5 and O6: a block changed behind the sync's back", async () => {
    await w.admin('POST', '/limits', { mode: 'off' });
    await w.api('PUT', '/blocks', { blocks: [{ id: 'N3', markdown: 'changed where nobody looked' }] });
    const final = await w.snapshot();
    expect(checkIdentity(w, final).join('\n')).toMatch(/block N3, which nobody touched, changed/);
    expect((await checkJournal(w, final)).join('\n')).toMatch(/Unsorted\/Note\.md: the journal's base is not the space's blocks/);
    fs.appendFileSync(w.file('Unsorted/Ideas.md'), '\nmore\n');
    expect((await checkJournal(w, final)).join('\n')).toMatch(/Unsorted\/Ideas\.md: the journal's file hash/);
  });

  it('O1: a text written and found nowhere', async () => {
    w.ledger.record(['a text that vanished'], 'a test');
    expect(checkNothingLost(w)).toEqual(['lost: "a text that vanished" (written by a test)']);
  });

  it('O1: a space edit overwritten by a block write of the sync already on its way is the one loss allowed', async () => {
    w.ledger.record(['an edit in the app'], 'remote PUT /blocks', { from: 1_000, to: 1_010 });
    const lost = ['lost: "an edit in the app" (written by remote PUT /blocks)'];
    expect(checkNothingLost(w, [req(1_020, { method: 'PUT', path: '/blocks', receivedAt: 900 })])).toEqual([]);
    // A write sent after the edit was answered, or one that overwrites nothing, is no excuse.
    expect(checkNothingLost(w, [req(1_100, { method: 'PUT', path: '/blocks', receivedAt: 1_050 })])).toEqual(lost);
    expect(checkNothingLost(w, [req(1_020, { method: 'POST', path: '/blocks', receivedAt: 900 })])).toEqual(lost);
    expect(checkNothingLost(w, [req(990, { method: 'PUT', path: '/blocks', receivedAt: 900 })])).toEqual(lost);
  });

  it("O1: so is one overwritten by a write sent soon after the sync's last listing, which did not show it yet", async () => {
    w.ledger.record(['an edit in the app'], 'remote PUT /blocks', { from: 1_000, to: 1_010 });
    const listing = (t: number) => req(t, { method: 'GET', path: '/documents', query: { fetchMetadata: 'true' }, receivedAt: t - 5 });
    const put = (at: number) => req(at + 5, { method: 'PUT', path: '/blocks', receivedAt: at });
    expect(checkNothingLost(w, [listing(995), put(1_050)])).toEqual([]);
    // The listing came after the edit (it showed it), or the push went on long after it without a new look: a loss.
    const lost = ['lost: "an edit in the app" (written by remote PUT /blocks)'];
    expect(checkNothingLost(w, [listing(1_030), put(1_050)])).toEqual(lost);
    expect(checkNothingLost(w, [listing(995), put(995 + RECHECK_AFTER_MS + 100)])).toEqual(lost);
  });

  it("O1: a cell the app wrote, overwritten by the sync's cell write sent right after its read of the collection, is allowed the same way", async () => {
    w.ledger.record(['a note from the app'], 'remote.collectionCell C1', { from: 1_000, to: 1_010 });
    const read = (t: number) => req(t, { method: 'GET', path: '/blocks', query: { id: 'D1' }, receivedAt: t - 5 });
    const put = (at: number) => req(at + 5, { method: 'PUT', path: '/collections/C1/items', receivedAt: at });
    expect(checkNothingLost(w, [read(995), put(1_050)])).toEqual([]);
    const lost = ['lost: "a note from the app" (written by remote.collectionCell C1)'];
    // The read showed the app's value, or the write is no cell write: a loss.
    expect(checkNothingLost(w, [read(1_030), put(1_050)])).toEqual(lost);
    expect(checkNothingLost(w, [read(995), req(1_055, { method: 'POST', path: '/collections/C1/items', receivedAt: 1_050 })])).toEqual(lost);
  });
});

it('an injected 429 without Retry-After has no such header', async () => {
  await w.armFault({ kind: '429', retryAfter: null, match: { path: '^/folders$' } });
  const r = await w.api('GET', '/folders');
  expect(r.status).toBe(429);
  expect(r.headers['retry-after']).toBeUndefined();
  await w.armFault({ kind: '429', match: { path: '^/folders$' } });
  expect((await w.api('GET', '/folders')).headers['retry-after']).toBe('1');
});
