// The git backup's commit is written from the cycle's report: a note edited here and a task added
// here are filed on the same side (changed here, sent), an edit made in the space on the other.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { afterReport, lookedAt, syncOnce } from '../../src/sync/index.js';
import { smallSpace } from '../cli/cliHarness.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';

let space: Space;
let root: string;

async function cycle() {
  const session = await openSession(root, space);
  try {
    const r = await syncOnce(session.ctx);
    await afterReport(session.ctx, r.report, { looked: lookedAt('cycle'), autoCommit: true });
    return r;
  } finally {
    session.close();
  }
}
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

beforeEach(async () => {
  space = await startSpace(smallSpace);
  root = makeRoot();
  await cycle();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

it('files a note edited here and a task added here under "changed here", an edit in the space under "pulled"', async () => {
  const note = path.join(root, 'Unsorted/Inbox note.md');
  fs.writeFileSync(note, fs.readFileSync(note, 'utf8').replace('hello world', 'hello from here'));
  fs.appendFileSync(path.join(root, 'Tasks/Inbox.md'), '- [ ] water the plants\n');
  await space.call('PUT', '/blocks', { blocks: [{ id: 'B-P', markdown: 'Ship the sync engine, said the space' }] });
  const r = await cycle();
  expect(r.report.changes.map((c) => `${c.side} ${c.kind} ${c.title}`).sort()).toEqual([
    'local document Inbox note',
    'local task water the plants',
    'remote document Roadmap',
  ]);
  const message = git('log', '-1', '--format=%s%n%b');
  const [here, there] = message.split('Changed in the space, pulled:');
  expect(here).toContain('Changed here, sent to the space:');
  expect(here).toMatch(/- Unsorted\/Inbox note\.md: edited/);
  expect(here).toMatch(/- Tasks\/Inbox\.md: edited/);
  expect(there).toMatch(/- Projects\/Roadmap\.md: updated/);
  expect(there).not.toContain('Tasks/Inbox.md');
});
