// Edits never wait for a pull: a file saved while a long first pull runs reaches the space within
// a debounce and a few requests (the pull lets it go first between two documents, on the budget's
// share kept for edits), and the pull then goes on to its end.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSpace } from '../../src/server/index.js';
import { runDaemon, type SyncSession } from '../../src/sync/index.js';
import { type DaemonHandle } from '../../src/sync/daemon/index.js';
import { type PushResult } from '../../src/sync/documents/index.js';
import { type SyncOnceResult } from '../../src/sync/cycle/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

const DOCS = 60;
let space: Space;
let root: string;
let session: SyncSession;
let daemon: DaemonHandle | undefined;
beforeAll(async () => {
  space = await startSpace(generateSpace({ documents: DOCS, blocksPerDocument: 2, folders: 0, seed: 5 }));
  root = makeRoot();
  // The space's budget the tighter, as with the service's own limits: 20 requests per 3 s, a fifth
  // of them kept for edits; the pull reads some 5 documents a second, some 11 s in all.
  session = await openSession(root, space, { budget: { requestsPerMinute: 20, requestsPerAddress10s: 1000, reservePercent: 20, scale: 0.05 } });
});
afterAll(async () => {
  await daemon?.stop();
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const unsorted = () => path.join(root, 'Unsorted');
const written = () => (fs.existsSync(unsorted()) ? fs.readdirSync(unsorted()).filter((f) => f.endsWith('.md')) : []);
async function waitFor(what: string, cond: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  for (const until = Date.now() + ms; !(await cond());) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('a file saved during the first pull is pushed before the pull ends; the pull then completes', { timeout: 90_000 }, async () => {
  const cycles: SyncOnceResult[] = [];
  const pushes: PushResult[] = [];
  daemon = runDaemon({
    ctx: session.ctx,
    pollMinMs: 600_000,
    pollMaxMs: 600_000,
    debounceMs: 80,
    stabilityMs: 150,
    onCycle: (r) => cycles.push(r),
    onPush: (r) => pushes.push(r),
  });
  await waitFor('the first 10 files', () => written().length >= 10);
  const name = written()[0]!;
  const file = path.join(unsorted(), name);
  const id = /^id: (.+)$/m.exec(fs.readFileSync(file, 'utf8'))![1]!.trim();
  fs.appendFileSync(file, '\nSaved while the pull runs.\n');
  const savedAt = Date.now();

  const inSpace = async () => {
    const r = await fetch(`${space.server.baseUrl}/blocks?id=${id}`);
    return ((await r.json()) as { content: Array<{ markdown: string }> }).content.some((b) => b.markdown === 'Saved while the pull runs.');
  };
  // Its push done and recorded (the request lands a moment before).
  await waitFor('the edit in the space', async () => pushes.length > 0 && (await inSpace()));
  const tookMs = Date.now() - savedAt;
  // Still pulling: the edit did not wait for the pull's end.
  expect(cycles).toHaveLength(0);
  expect(written().length).toBeLessThan(DOCS);
  expect(pushes[0]!.outcome?.sent.length).toBeGreaterThan(0);
  expect(tookMs).toBeLessThan(5_000);

  await daemon.ready;
  expect(cycles).toHaveLength(1);
  const pull = cycles[0]!.pull!;
  expect(pull.aborted).toBe(false);
  expect(pull.failed).toEqual([]);
  expect(written()).toHaveLength(DOCS);
  expect(fs.readFileSync(file, 'utf8')).toContain('Saved while the pull runs.');
  expect(await inSpace()).toBe(true);
});
