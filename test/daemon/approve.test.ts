// Approving what a safety check held back while the daemon runs (`sync --once --force` cannot be
// followed then: the daemon holds the folder). Status names the whole `spacesync approve` line; the
// command hands the approval over through the journal, and the daemon acts on it at its next cycle,
// only on what status listed: a file changed again since is held again, another set of deletes is
// refused again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJournalForReading } from '../../src/journal/index.js';
import { startServer, type RunningServer, type SpaceFixture } from '../../src/server/index.js';
import { linkIdOf, runCli, spawnCli, tempDir, writeConfig, type CliProcess } from '../cli/cliHarness.js';

const ROADMAP = 'Projects/Roadmap.md';
const NOTES = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];

const space: SpaceFixture = {
  version: 1,
  space: { id: 'SPACE-APPROVE', name: 'Approvals', timezone: 'UTC', userId: 'U-1' },
  folders: [{ id: 'F-PROJ', name: 'Projects', createdAt: '2026-01-01T00:00:00Z' }],
  documents: [
    {
      id: 'D-ROAD',
      title: 'Roadmap',
      folderId: 'F-PROJ',
      createdAt: '2026-08-01T10:00:00Z',
      content: [
        { id: 'B-H', markdown: '# Goals' },
        { id: 'B-P', markdown: 'Ship the sync engine' },
        { id: 'B-L', markdown: '- first step' },
      ],
    },
    ...NOTES.map((n, i) => ({
      id: `D-${n.toUpperCase()}`,
      title: n,
      createdAt: `2026-08-0${i + 2}T10:00:00Z`,
      content: [{ id: `B-${n}`, markdown: `note ${n}` }],
    })),
  ],
};

/** A server of its own for each test, so each starts from the space above. */
let server: RunningServer;
const daemons: CliProcess[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    d.child.kill('SIGTERM');
    await d.done;
  }
  await server.close();
});

interface HeldBackJson {
  path: string;
  reason: string;
  hash?: string;
  approve?: string;
}
interface StatusJson {
  heldBack: HeldBackJson[];
  refused: { reason: string; deleteCount: number; proceed: string } | null;
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(daemons.map((d) => d.output()))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A fresh copy of the space, a folder synced from it and its daemon running (polling every `pollSeconds`). */
async function mirrorWithDaemon(pollSeconds: number): Promise<{ root: string; daemon: CliProcess }> {
  server = await startServer({ port: 0, seed: space, limits: 'off' });
  const root = tempDir();
  writeConfig(root, { link: server.baseUrl, poll: { minSeconds: pollSeconds, maxSeconds: pollSeconds }, debounceMs: 50 });
  return { root, daemon: await startDaemon(root, /Pulled: 7 new/) };
}

/** Starts the daemon on `root` and waits for its first cycle to end (`first`: the line it prints then). */
async function startDaemon(root: string, first: RegExp): Promise<CliProcess> {
  const daemon = spawnCli(['sync', '--dir', root]);
  daemons.push(daemon);
  await daemon.waitFor(first);
  return daemon;
}

async function status(root: string): Promise<StatusJson> {
  const r = await runCli(['status', '--dir', root, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusJson;
}

async function held(root: string, file: string): Promise<HeldBackJson | undefined> {
  return (await status(root)).heldBack.find((h) => h.path === file);
}

function approvals(root: string): unknown {
  const j = openJournalForReading(path.join(root, '.spacesync', 'journal.db'));
  try {
    return j.getState('approvals');
  } finally {
    j.close();
  }
}

const blocksOf = async (docId: string) =>
  ((await (await fetch(`${server.baseUrl}/blocks?id=${docId}`)).json()) as { content: Array<{ markdown: string }> }).content.map((b) => b.markdown);
const trashed = async () =>
  ((await (await fetch(`${server.baseUrl}/documents?location=trash`)).json()) as { items: Array<{ title: string }> }).items.map((d) => d.title).sort();

/** Runs a command line status printed (split on spaces: the paths here need no quoting). */
async function follow(line: string) {
  const [bin, ...args] = line.split(' ');
  expect(bin).toBe('spacesync');
  const r = await runCli(args);
  expect(r.stdout + r.stderr).not.toContain(linkIdOf(server.baseUrl));
  return r;
}

describe('spacesync approve beside a running daemon', () => {
  it('a file emptied is held back; status names `spacesync approve`; approved, the daemon sends it at its next cycle', async () => {
    const { root, daemon } = await mirrorWithDaemon(1);
    fs.writeFileSync(path.join(root, ROADMAP), '');
    await until('the file to be held back', async () => (await held(root, ROADMAP))?.reason === 'wipe');
    const h = (await held(root, ROADMAP))!;
    expect(h.approve).toBe(`spacesync approve ${ROADMAP} --dir ${root}`);
    expect((await runCli(['status', '--dir', root])).stdout).toContain(`To send it as it is: \`spacesync approve ${ROADMAP} --dir ${root}\``);
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals', 'Ship the sync engine', '- first step']);
    // What the message used to advise cannot be followed while the daemon runs.
    const forced = await runCli(['sync', '--once', '--force', '--dir', root]);
    expect(forced.stderr).toContain('already being synced by another spacesync');

    const approved = await follow(h.approve!);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved sending "${ROADMAP}" as it was held back`);
    expect(approved.stdout).toContain(`the daemon syncing ${root} (pid ${daemon.child.pid}) acts on it at its next cycle (within about 1 s)`);
    await until('the space to hold the emptied document', async () => (await blocksOf('D-ROAD')).every((b) => b.trim() === ''));
    await until('the file to be held back no more', async () => (await held(root, ROADMAP)) === undefined);
    // Used once: emptied again later (after some text), it is held again.
    expect(approvals(root)).toBeUndefined();
  });

  it('a file changed again after its approval is held again, and the approval is dropped', async () => {
    // A long poll: the daemon looks only when a file changes, so nothing runs between the approval and the change.
    const { root } = await mirrorWithDaemon(60);
    fs.writeFileSync(path.join(root, ROADMAP), '');
    await until('the file to be held back', async () => (await held(root, ROADMAP))?.reason === 'wipe');
    const first = (await held(root, ROADMAP))!;
    const approved = await follow(first.approve!);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approvals(root)).toMatchObject({ files: [{ path: ROADMAP, hash: first.hash }] });

    fs.writeFileSync(path.join(root, ROADMAP), '\n\n   \n');
    await until('the file to be held back as it is now', async () => {
      const h = await held(root, ROADMAP);
      return h !== undefined && h.hash !== first.hash;
    });
    expect(await blocksOf('D-ROAD')).toEqual(['# Goals', 'Ship the sync engine', '- first step']);
    expect(approvals(root)).toBeUndefined();
  });

  it('a mass delete is refused; another set of deletes than the approved one is refused again; approved as it is, the next cycle goes ahead', async () => {
    const { root, daemon: first } = await mirrorWithDaemon(2);
    // The four deletes are made with the daemon stopped: a watcher quick enough (or a machine slow enough)
    // would otherwise send the first delete alone, before the others were made, and nothing would be refused.
    first.child.kill('SIGTERM');
    await first.done;
    for (const n of NOTES.slice(0, 4)) fs.rmSync(path.join(root, 'Unsorted', `${n}.md`));
    const daemon = await startDaemon(root, /spacesync: /);
    await until('the deletes to be refused', async () => (await status(root)).refused?.deleteCount === 4);
    const refused = (await status(root)).refused!;
    expect(refused).toMatchObject({ reason: 'mass_delete_remote', proceed: `spacesync approve --deletes --dir ${root}` });
    expect((await runCli(['status', '--dir', root])).stdout).toContain(`if that is what you want: spacesync approve --deletes --dir ${root}`);

    // The daemon stopped (so nothing runs between the approval and the next delete), the four approved…
    daemon.child.kill('SIGTERM');
    await daemon.done;
    const approved = await follow(refused.proceed);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain("Approved the refused cycle's 4 deletes, exactly as listed");
    expect(approved.stdout).toContain(`nothing was sent yet: no daemon syncs ${root}. The next sync acts on it`);
    // …then one file more deleted: not what was approved, so the next cycle refuses again and drops the approval.
    fs.rmSync(path.join(root, 'Unsorted', `${NOTES[4]}.md`));
    const again = await startDaemon(root, /spacesync: /);
    await until('the other deletes to be refused', async () => (await status(root)).refused?.deleteCount === 5);
    expect(await trashed()).toEqual([]);
    expect(approvals(root)).toBeUndefined();

    // Approved as they are now, beside the running daemon: its next cycle goes ahead.
    const now = await follow((await status(root)).refused!.proceed);
    expect(now.stdout).toContain(`acts on it at its next cycle`);
    await until('the five documents in the trash', async () => (await trashed()).length === 5);
    expect(await trashed()).toEqual(NOTES.slice(0, 5).sort());
    await until('the refusal to clear', async () => (await status(root)).refused === null);
    expect(approvals(root)).toBeUndefined();
    expect(again.output().stdout + again.output().stderr).not.toContain(linkIdOf(server.baseUrl));
  }, 60_000);
});
