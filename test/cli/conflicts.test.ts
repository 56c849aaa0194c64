// `spacesync conflicts` and `conflicts resolve` as a user runs them, on a mirror synced from the
// real server, with conflicts recorded the way the daemon records them (a copy beside the file).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { runCli, tempDir, useSyncedMirror, writeConfig } from './cliHarness.js';

let server: RunningServer;
/** One mirror synced by `sync --once`, copied for each test that changes it. */
let synced: string;
useSyncedMirror((m) => ({ server, synced } = m));

const COPY = 'Projects/Roadmap (conflict 2026-11-21 093005).md';

/** A synced mirror whose Roadmap had a conflict: the copy holds the local version, the journal records it. */
async function mirrorWithConflict(): Promise<{ root: string; id: number }> {
  const root = tempDir();
  fs.cpSync(synced, root, { recursive: true });
  const file = fs.readFileSync(path.join(root, 'Projects', 'Roadmap.md'), 'utf8');
  expect(file).toContain('Ship the sync engine');
  fs.writeFileSync(
    path.join(root, COPY),
    file.replace('Ship the sync engine', 'Ship the sync engine next week').replace('- first step', '- first step\n- second step'),
  );
  const journal = openJournal(path.join(root, '.spacesync', 'journal.db'));
  const id = journal.addConflict({ docId: 'D-ROAD', path: 'Projects/Roadmap.md', copyPath: COPY, details: { blocks: ['B-P'] } });
  journal.close();
  return { root, id };
}

describe('spacesync conflicts', () => {
  it('none: says so', async () => {
    const root = tempDir();
    writeConfig(root, { link: server.baseUrl });
    const r = await runCli(['conflicts', '--dir', root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`No open conflicts in ${root}.\n`);
  });

  it('lists a conflict with the blocks that differ between the file and the copy, and how to settle it', async () => {
    const { root, id } = await mirrorWithConflict();
    const r = await runCli(['conflicts', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 open conflict in');
    expect(r.stdout).toMatch(new RegExp(`#${id}  Projects/Roadmap\\.md  \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d, `));
    expect(r.stdout).toContain(`your version: ${COPY}`);
    const diff = r.stdout
      .split('\n')
      .filter((l) => /^ {4}[-+ ] /.test(l))
      .map((l) => l.slice(4));
    expect(diff).toEqual(['  # Goals', '- Ship the sync engine', '+ Ship the sync engine next week', '  - first step', '+ - second step']);
    expect(r.stdout).toContain(`spacesync conflicts resolve <number or copy path> --dir ${root}`);

    const j = JSON.parse((await runCli(['conflicts', '--dir', root, '--json'])).stdout);
    expect(j.conflicts).toHaveLength(1);
    expect(j.conflicts[0]).toMatchObject({
      id,
      docId: 'D-ROAD',
      path: 'Projects/Roadmap.md',
      copyPath: COPY,
      resolvedAt: null,
      fileExists: true,
      copyExists: true,
    });
    expect(j.conflicts[0].diff.filter((d: { op: string }) => d.op !== 'same')).toEqual([
      { op: 'removed', markdown: 'Ship the sync engine', kind: 'block', depth: 0 },
      { op: 'added', markdown: 'Ship the sync engine next week', kind: 'block', depth: 0 },
      { op: 'added', markdown: '- second step', kind: 'block', depth: 0 },
    ]);
  });

  it('a title changed on both sides: says which title the document kept and which one names the copy', async () => {
    const root = tempDir();
    fs.cpSync(synced, root, { recursive: true });
    const copy = 'Projects/Plan B (conflict 2026-11-21 093005).md';
    fs.copyFileSync(path.join(root, 'Projects', 'Roadmap.md'), path.join(root, copy));
    const journal = openJournal(path.join(root, '.spacesync', 'journal.db'));
    journal.addConflict({
      docId: 'D-ROAD',
      path: 'Projects/Roadmap.md',
      copyPath: copy,
      details: { blocks: [], title: { local: 'Plan B', remote: 'Roadmap' } },
    });
    journal.close();
    const r = await runCli(['conflicts', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`The title changed on both sides: the document keeps the space's "Roadmap"; yours, "Plan B", names the copy.`);
    const j = JSON.parse((await runCli(['conflicts', '--dir', root, '--json'])).stdout);
    expect(j.conflicts[0].title).toEqual({ local: 'Plan B', remote: 'Roadmap' });
  });

  it("resolve by the copy's path marks it done and keeps the copy; --all still shows it", async () => {
    const { root, id } = await mirrorWithConflict();
    const r = await runCli(['conflicts', 'resolve', COPY, '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Conflict #${id} on Projects/Roadmap.md is marked resolved.`);
    expect(r.stdout).toContain('is kept (it is never synced)');
    expect(fs.existsSync(path.join(root, COPY))).toBe(true);
    expect((await runCli(['conflicts', '--dir', root])).stdout).toBe(`No open conflicts in ${root}.\n`);
    const all = await runCli(['conflicts', '--dir', root, '--all']);
    expect(all.stdout).toMatch(/; resolved \d{4}-/);
    const again = await runCli(['conflicts', 'resolve', String(id), '--dir', root]);
    expect(again.stdout).toContain('was already resolved');
  });

  it('resolve by number, from inside the mirror, with --delete-copy removes only the copy', async () => {
    const { root, id } = await mirrorWithConflict();
    const r = await runCli(['conflicts', 'resolve', `#${id}`, '--delete-copy'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Deleted the copy ${COPY}.`);
    expect(fs.existsSync(path.join(root, COPY))).toBe(false);
    expect(fs.existsSync(path.join(root, 'Projects', 'Roadmap.md'))).toBe(true);
  });

  it('a path relative to the current folder and --dir before the subcommand both work', async () => {
    const { root, id } = await mirrorWithConflict();
    const r = await runCli(['conflicts', '--dir', root, 'resolve', path.join('Projects', path.basename(COPY))], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Conflict #${id}`);
  });

  it('a copy the user deleted is pointed out, with the command that closes it', async () => {
    const { root, id } = await mirrorWithConflict();
    fs.rmSync(path.join(root, COPY));
    const r = await runCli(['conflicts', '--dir', root]);
    expect(r.stdout).toContain(`your version: ${COPY} (deleted)`);
    expect(r.stdout).toContain(`The copy is gone: mark this done with \`spacesync conflicts resolve ${id} --dir ${root}\``);
  });

  it('an unknown conflict: a usage error saying how to list them', async () => {
    const { root } = await mirrorWithConflict();
    const r = await runCli(['conflicts', 'resolve', '99', '--dir', root]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`No conflict "99" in ${root}. List them with \`spacesync conflicts --dir ${root}\``);
  });
});
