// `spacesync approve` with no daemon running: it records the approval and says that the next sync
// acts on it (it syncs nothing itself); that sync sends the file as it was approved, and only so.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournalForReading } from '../../src/journal/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { linkIdOf, runCli, tempDir, useSyncedMirror } from './cliHarness.js';

let server: RunningServer;
let synced: string;
useSyncedMirror((m) => ({ server, synced } = m));

const ROADMAP = 'Projects/Roadmap.md';
const TEXT = ['# Goals', 'Ship the sync engine', '- first step'];

function mirror(): string {
  const root = tempDir();
  fs.cpSync(synced, root, { recursive: true });
  return root;
}

async function cli(args: string[]) {
  const r = await runCli(args);
  expect(r.stdout + r.stderr).not.toContain(linkIdOf(server.baseUrl));
  return r;
}

const INBOX = 'Unsorted/Inbox note.md';

const blocksOf = async (docId: string) =>
  ((await (await fetch(`${server.baseUrl}/blocks?id=${docId}`)).json()) as { content: Array<{ markdown: string }> }).content.map((b) => b.markdown);
const roadmap = () => blocksOf('D-ROAD');

function approvals(root: string): unknown {
  const j = openJournalForReading(path.join(root, '.spacesync', 'journal.db'));
  try {
    return j.getState('approvals');
  } finally {
    j.close();
  }
}

async function heldBack(root: string): Promise<Array<{ path: string; hash?: string; approve?: string }>> {
  return (JSON.parse((await cli(['status', '--dir', root, '--json'])).stdout) as { heldBack: Array<{ path: string; hash?: string; approve?: string }> })
    .heldBack;
}

describe('spacesync approve, no daemon running', () => {
  it('records the approval, says the next sync acts on it, and that sync sends the file as it was approved', async () => {
    const root = mirror();
    fs.writeFileSync(path.join(root, ROADMAP), '');
    const first = await cli(['sync', '--dir', root, '--once']);
    expect(first.stderr).toContain(`held back: "${ROADMAP}" holds no blocks any more`);
    expect(first.stderr).toContain(`\`spacesync approve "${ROADMAP}"\``);
    const [held] = await heldBack(root);
    expect(held).toMatchObject({ path: ROADMAP, approve: `spacesync approve ${ROADMAP} --dir ${root}` });

    // From another folder than the mirror, as status printed it.
    const r = await cli(['approve', ROADMAP, '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Approved sending "${ROADMAP}" as it was held back`);
    expect(r.stdout).toContain(
      `spacesync: nothing was sent yet: no daemon syncs ${root}. The next sync acts on it: \`spacesync sync --dir ${root} --once\`, or the daemon once started (\`spacesync sync --dir ${root}\`).`,
    );
    expect(await roadmap()).toEqual(TEXT);

    const next = await cli(['sync', '--dir', root, '--once']);
    expect(next.code, next.stderr).toBe(0);
    expect((await roadmap()).every((b) => b.trim() === '')).toBe(true);
    expect(await heldBack(root)).toEqual([]);
    expect(approvals(root)).toBeUndefined();
    // With the document emptied and nothing held back, nothing waits any more.
    const none = await cli(['approve', '--dir', root]);
    expect(none.stdout).toContain(`Nothing in ${root} waits for approval`);
  });

  // (The space is shared by the tests: this one empties another document than the one above.)
  it('a file changed again after its approval is held back again, and the approval is dropped', async () => {
    const root = mirror();
    fs.writeFileSync(path.join(root, INBOX), '');
    await cli(['sync', '--dir', root, '--once']);
    const [before] = await heldBack(root);
    expect((await cli(['approve', '--dir', root])).code).toBe(0);
    expect(approvals(root)).toMatchObject({ files: [{ path: INBOX, hash: before!.hash }] });

    fs.writeFileSync(path.join(root, INBOX), '\n\n   \n');
    const next = await cli(['sync', '--dir', root, '--once']);
    expect(next.stderr).toContain(`held back: "${INBOX}" holds no blocks any more`);
    expect(await blocksOf('D-NOTE')).toEqual(['hello world']);
    const [after] = await heldBack(root);
    expect(after!.hash).not.toBe(before!.hash);
    expect(approvals(root)).toBeUndefined();
  });

  it('refuses to approve what is not held back, or a refused cycle when there is none, recording nothing', async () => {
    const root = mirror();
    const notHeld = await cli(['approve', INBOX, '--dir', root]);
    expect(notHeld.code).toBe(64);
    expect(notHeld.stderr).toContain(`"${INBOX}" is not held back in ${root}, so there is nothing to approve`);
    const noRefusal = await cli(['approve', '--deletes', '--dir', root]);
    expect(noRefusal.code).toBe(64);
    expect(noRefusal.stderr).toContain(`No refused cycle of ${root} waits for approval`);
    expect(approvals(root)).toBeUndefined();
  });
});
