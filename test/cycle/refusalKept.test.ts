// A refused cycle's refusal is kept where `status` and `approve` read it until a full cycle goes
// through; a cycle cut short by a stop (the daemon told to end) says nothing of it.
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { emptyReport } from '../../src/core/report/cycleReport.js';
import { readRefusal } from '../../src/journal/daemonStatus.js';
import { afterReport, lookedAt } from '../../src/sync/index.js';
import { smallSpace } from '../cli/cliHarness.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

let space: Space;
let root: string;

beforeEach(async () => {
  space = await startSpace(smallSpace);
  root = makeRoot();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('a cycle cut short by a stop leaves the refusal standing; one that went through clears it', async () => {
  const stop = new AbortController();
  const session = await openSession(root, space, { signal: stop.signal });
  try {
    const { ctx } = session;
    const at = ctx.now().toISOString();
    const refused = { ...emptyReport('cycle', at), refusal: { reason: 'mass_delete_remote', message: 'Refused: 4 deletes.', deletes: ['a', 'b', 'c', 'd'] } };
    const quiet = emptyReport('cycle', at);
    const after = (report: typeof quiet) => afterReport(ctx, report, { looked: lookedAt('cycle'), autoCommit: false });
    await after(refused);
    expect(readRefusal(ctx.journal)).toMatchObject({ reason: 'mass_delete_remote', deleteCount: 4 });
    stop.abort();
    await after(quiet);
    expect(readRefusal(ctx.journal)).toMatchObject({ reason: 'mass_delete_remote', deleteCount: 4 });
    ctx.signal = undefined;
    await after(quiet);
    expect(readRefusal(ctx.journal)).toBeUndefined();
  } finally {
    session.close();
  }
});
