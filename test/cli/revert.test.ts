// `spacesync revert` (backup mode): the folder back to the space's state as the journal knows it,
// sending nothing; what it replaces or removes goes to the version history first.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runCli, tempDir, useSyncedMirror, writeConfig, type SyncedMirror } from './cliHarness.js';

let m: SyncedMirror;
useSyncedMirror((x) => (m = x));

/** A copy of the synced mirror, its config set to `mode`. */
function mirror(mode: 'two-way' | 'backup'): string {
  const root = tempDir();
  fs.cpSync(m.synced, root, { recursive: true });
  writeConfig(root, { link: m.server.baseUrl, mode });
  return root;
}
const file = (root: string, p: string) => path.join(root, ...p.split('/'));

it('is refused in two-way mode, where changes here are sent', async () => {
  const r = await runCli(['revert', '--dir', mirror('two-way')]);
  expect(r.code).toBe(64);
  expect(r.stderr).toContain('syncs both ways ("mode": "two-way"): its changes here are sent to the space, not reverted.');
});

it('puts back edited, deleted and moved files and takes out new ones (into the history), changing nothing with --dry-run', async () => {
  const root = mirror('backup');
  const before = new Map(['Projects/Roadmap.md', 'Unsorted/Inbox note.md'].map((p) => [p, fs.readFileSync(file(root, p), 'utf8')]));
  fs.writeFileSync(file(root, 'Unsorted/Inbox note.md'), before.get('Unsorted/Inbox note.md')!.replace('hello world', 'format on save'));
  fs.renameSync(file(root, 'Projects/Roadmap.md'), file(root, 'Unsorted/Roadmap.md'));
  fs.writeFileSync(file(root, 'Unsorted/Stray.md'), 'a script ran here\n');

  const dry = await runCli(['revert', '--dir', root, '--dry-run']);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain('Dry run: would revert 3 file(s):');
  expect(fs.existsSync(file(root, 'Unsorted/Stray.md'))).toBe(true);

  const r = await runCli(['revert', '--dir', root]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain("Reverted 3 file(s) to the space's version; nothing was sent:");
  for (const [p, text] of before) expect(fs.readFileSync(file(root, p), 'utf8'), p).toBe(text);
  expect(fs.existsSync(file(root, 'Unsorted/Roadmap.md'))).toBe(false);
  expect(fs.existsSync(file(root, 'Unsorted/Stray.md'))).toBe(false);
  const status = JSON.parse((await runCli(['status', '--dir', root, '--json'])).stdout) as { pendingLocal: unknown[] };
  expect(status.pendingLocal).toEqual([]);
  // What left the folder is in the history, and restore brings it back.
  expect((await runCli(['history', 'Unsorted/Stray.md', '--dir', root])).stdout).toContain('before `spacesync revert`');
  expect((await runCli(['restore', 'Unsorted/Stray.md', '--dir', root])).code).toBe(0);
  expect(fs.readFileSync(file(root, 'Unsorted/Stray.md'), 'utf8')).toBe('a script ran here\n');

  // A deleted file is written back; a file named alone is the only one reverted.
  fs.rmSync(file(root, 'Projects/Roadmap.md'));
  const one = await runCli(['revert', '--dir', root, file(root, 'Projects/Roadmap.md')]);
  expect(one.code, one.stderr).toBe(0);
  expect(fs.readFileSync(file(root, 'Projects/Roadmap.md'), 'utf8')).toBe(before.get('Projects/Roadmap.md'));
  expect(fs.existsSync(file(root, 'Unsorted/Stray.md'))).toBe(true);
});
