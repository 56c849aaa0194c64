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
    expect(r.stdout).toContain(`Deleted the copy ${COPY}; Projects/Roadmap.md keeps the space's version.`);
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

  it("--keep mine: the copy's text replaces the file (its id kept), the copy goes, and the next sync sends it", async () => {
    const { root, id } = await mirrorWithConflict();
    const copy = fs.readFileSync(path.join(root, COPY), 'utf8');
    const r = await runCli(['conflicts', 'resolve', String(id), '--dir', root, '--keep', 'mine']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Your version from ${COPY} replaced Projects/Roadmap.md; the next sync sends it to the space.`);
    expect(r.stdout).toContain(`Conflict #${id} on Projects/Roadmap.md is marked resolved.`);
    expect(fs.readFileSync(path.join(root, 'Projects', 'Roadmap.md'), 'utf8')).toBe(copy);
    expect(fs.existsSync(path.join(root, COPY))).toBe(false);
    const sync = await runCli(['sync', '--dir', root, '--once']);
    expect(sync.code, sync.stderr).toBe(0);
    const blocks = ((await (await fetch(`${server.baseUrl}/blocks?id=D-ROAD`)).json()) as { content: Array<{ markdown: string }> }).content;
    expect(blocks.map((b) => b.markdown)).toEqual(['# Goals', 'Ship the sync engine next week', '- first step', '- second step']);
    // The shared server is put back for the other tests.
    fs.writeFileSync(path.join(root, 'Projects', 'Roadmap.md'), fs.readFileSync(path.join(synced, 'Projects', 'Roadmap.md')));
    expect((await runCli(['sync', '--dir', root, '--once'])).code).toBe(0);
  });

  it("--keep mine on a copy without the document's id: the file still names its document", async () => {
    const { root, id } = await mirrorWithConflict();
    fs.writeFileSync(path.join(root, COPY), '# Goals\n\nMine only\n');
    const r = await runCli(['conflicts', 'resolve', String(id), '--dir', root, '--keep', 'mine']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, 'Projects', 'Roadmap.md'), 'utf8')).toBe('---\nid: D-ROAD\n---\n# Goals\n\nMine only\n');
  });

  it("--keep space deletes the copy and leaves the file; --keep both turns the copy into a note of its own, without the document's id", async () => {
    const space = await mirrorWithConflict();
    const before = fs.readFileSync(path.join(space.root, 'Projects', 'Roadmap.md'), 'utf8');
    const r = await runCli(['conflicts', 'resolve', COPY, '--dir', space.root, '--keep', 'space']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Deleted the copy ${COPY}; Projects/Roadmap.md keeps the space's version.`);
    expect(fs.existsSync(path.join(space.root, COPY))).toBe(false);
    expect(fs.readFileSync(path.join(space.root, 'Projects', 'Roadmap.md'), 'utf8')).toBe(before);

    const both = await mirrorWithConflict();
    const copy = fs.readFileSync(path.join(both.root, COPY), 'utf8');
    expect(copy).toContain('id: D-ROAD');
    const b = await runCli(['conflicts', 'resolve', String(both.id), '--dir', both.root, '--keep', 'both']);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain(`Your version from ${COPY} is now a note of its own, Projects/Roadmap (mine).md`);
    const note = fs.readFileSync(path.join(both.root, 'Projects', 'Roadmap (mine).md'), 'utf8');
    expect(note).not.toContain('id:');
    expect(note).toContain('Ship the sync engine next week');
    expect(fs.existsSync(path.join(both.root, COPY))).toBe(false);
    expect(fs.readFileSync(path.join(both.root, 'Projects', 'Roadmap.md'), 'utf8')).toBe(before);
  });

  it("--keep with another word, or with --delete-copy, is a usage error; --keep mine with the copy gone says how to keep the space's", async () => {
    const { root, id } = await mirrorWithConflict();
    const bad = await runCli(['conflicts', 'resolve', String(id), '--dir', root, '--keep', 'theirs']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--keep takes mine, space or both (got "theirs")');
    const both = await runCli(['conflicts', 'resolve', String(id), '--dir', root, '--keep', 'mine', '--delete-copy']);
    expect(both.code).toBe(64);
    fs.rmSync(path.join(root, COPY));
    const gone = await runCli(['conflicts', 'resolve', String(id), '--dir', root, '--keep', 'mine']);
    expect(gone.code).toBe(64);
    expect(gone.stderr).toContain(`The copy ${COPY} is gone, so there is no version of yours to keep (--keep mine).`);
    expect((await runCli(['conflicts', '--dir', root])).stdout).toContain('1 open conflict');
  });

  it('an unknown conflict: a usage error saying how to list them', async () => {
    const { root } = await mirrorWithConflict();
    const r = await runCli(['conflicts', 'resolve', '99', '--dir', root]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`No conflict "99" in ${root}. List them with \`spacesync conflicts --dir ${root}\``);
  });
});
