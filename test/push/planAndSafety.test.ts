// Scenario 20: `spacesync plan` (and `sync --dry-run`) shows exactly the requests the real cycle
// then sends, in order, and exactly what its pull then does to the files, and changes nothing; the mass-delete guard refuses with exit 2 and a
// message naming the numbers, `--force` overrides; conflicts end `sync --once` with exit 3.
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readTree } from '../pull/harness.js';
import { spawnCli } from '../cli/spawnCli.js';
import { applyLocal, applyRemote, closeWorld, openWorld, writesOf, type World } from './pushHarness.js';

let w: World;
beforeEach(async () => {
  w = await openWorld();
  // The command-line runs need the folder's lock.
  w.session.close();
});
afterEach(async () => {
  await closeWorld(w);
});

const cli = (...args: string[]) => spawnCli([...args, '--dir', w.root], { SPACESYNC_LINK: w.space.server.baseUrl }).done;

it('plan lists the requests the next cycle sends, in the same order, and changes nothing', async () => {
  applyLocal(w, [
    { edit: 'Unsorted/Note.md', from: 'second paragraph', to: 'second, edited' },
    { write: 'Projects/Launch.md', text: '# Launch\n\nsoon\n' },
    { move: 'Unsorted/Ideas.md', to: 'Home/Ideas.md' },
    { write: 'Garden/Seeds.md', text: 'tomatoes\n' },
    { remove: 'Home/Chores.md' },
  ]);
  const before = readTree(w.root);
  await w.space.clearRequests();
  const plan = await cli('plan', '--json');
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  const planned = (JSON.parse(plan.stdout) as { push: { requests: Array<{ method: string; path: string }> } }).push.requests.map(
    (r) => `${r.method} ${r.path}`,
  );
  expect(await writesOf(w.space)).toEqual([]);
  expect([...readTree(w.root)].map(([p, v]) => [p, v.text])).toEqual([...before].map(([p, v]) => [p, v.text]));
  expect(planned).toEqual([
    'POST /folders',
    'POST /documents',
    'POST /documents',
    'PUT /documents/move',
    'PUT /blocks',
    'POST /blocks',
    'POST /blocks',
    'DELETE /documents',
  ]);

  const dry = await cli('sync', '--dry-run');
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain('Would send 8 requests, in this order:');
  expect(dry.stdout).toContain('PUT /blocks: edit 1 block in "Unsorted/Note.md"');
  expect(await writesOf(w.space)).toEqual([]);

  const run = await cli('sync', '--once');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(await writesOf(w.space)).toEqual(planned);
  const again = await cli('plan', '--json');
  expect(JSON.parse(again.stdout).push.requests).toEqual([]);
});

interface PulledPlan {
  createFolders: string[];
  moveFolders: Array<{ from: string; to: string }>;
  create: string[];
  update: string[];
  move: Array<{ from: string; to: string }>;
  purge: string[];
  keep: unknown[];
  blocked: unknown[];
}

/** The tree the pull's plan promises: folders renamed with what is inside, files moved, new files, updated ones. */
function treeAfter(before: Map<string, string | null>, plan: PulledPlan): { paths: string[]; updated: string[] } {
  let paths = new Map([...before].map(([p]) => [p, p] as const));
  for (const f of plan.moveFolders) {
    paths = new Map([...paths].map(([orig, p]) => [orig, p.startsWith(`${f.from}/`) ? f.to + p.slice(f.from.length) : p] as const));
  }
  const now = new Map([...paths].map(([orig, p]) => [p, orig] as const));
  for (const m of plan.move) {
    const orig = now.get(m.from)!;
    now.delete(m.from);
    now.set(m.to, orig);
  }
  for (const p of plan.purge) now.delete(p);
  return { paths: [...now.keys(), ...plan.create].sort(), updated: [...plan.update].sort() };
}

// The plan speaks of documents and folders; the task files under Tasks/ (written by the same cycle) are not in it.
it('plan lists what the pull of the next cycle writes, moves and updates, and the cycle does exactly that', async () => {
  await applyRemote(w, [
    { method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'P4', markdown: 'closing words, from the app' }] } },
    { method: 'PUT', path: '/documents/move', body: { documentIds: ['D-IDEA'], destination: { folderId: 'F-HOME' } } },
    { method: 'PUT', path: '/folders/move', body: { folderIds: ['F-SUB'], destination: { parentFolderId: 'F-HOME' } } },
    { method: 'POST', path: '/documents', body: { documents: [{ title: 'Fresh' }] } },
  ]);
  const before = new Map([...readTree(w.root)].filter(([p]) => !p.startsWith('.spacesync/') && !p.startsWith('Tasks/')).map(([p, v]) => [p, v.text] as const));
  const plan = await cli('plan', '--json');
  expect(plan.code).toBe(0);
  const pull = (JSON.parse(plan.stdout) as { pull: PulledPlan }).pull;
  expect(pull).toMatchObject({
    create: ['Unsorted/Fresh.md'],
    update: ['Projects/Plan.md'],
    move: [{ from: 'Unsorted/Ideas.md', to: 'Home/Ideas.md' }],
    moveFolders: [{ from: 'Projects/Sub', to: 'Home/Sub' }],
    purge: [],
    keep: [],
    blocked: [],
  });

  const run = await cli('sync', '--once');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const after = new Map([...readTree(w.root)].filter(([p]) => !p.startsWith('.spacesync/') && !p.startsWith('Tasks/')).map(([p, v]) => [p, v.text] as const));
  const promised = treeAfter(before, pull);
  expect([...after.keys()].sort()).toEqual(promised.paths);
  // Every file the plan did not name for an update holds what it held (wherever it moved to).
  const updated = [...after]
    .filter(([p, text]) => before.has(p) && before.get(p) !== text)
    .map(([p]) => p)
    .sort();
  expect(updated).toEqual(promised.updated);
  expect(after.get('Home/Ideas.md')).toBe(before.get('Unsorted/Ideas.md'));
  expect(after.get('Home/Sub/Deep.md')).toBe(before.get('Projects/Sub/Deep.md'));
  const again = JSON.parse((await cli('plan', '--json')).stdout) as { pull: PulledPlan };
  expect(again.pull).toMatchObject({ create: [], update: [], move: [], moveFolders: [], createFolders: [] });
});

it('refuses a mass delete with exit 2, naming the numbers, sending nothing; --force goes ahead', async () => {
  applyLocal(w, [{ remove: 'Unsorted/Note.md' }, { remove: 'Unsorted/Ideas.md' }, { remove: 'Projects/Plan.md' }, { remove: 'Home/Chores.md' }]);
  await w.space.clearRequests();
  const refused = await cli('sync', '--once');
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/4 of 6 documents \(67%\).*more than the 50% allowed.*--force/s);
  expect(await writesOf(w.space)).toEqual([]);
  const plan = await cli('plan');
  expect(plan.code).toBe(2);
  expect(plan.stdout).toContain('A real run would stop here, sending and writing nothing');

  const forced = await cli('sync', '--once', '--force');
  expect(forced.stderr).toBe('');
  expect(forced.code).toBe(0);
  expect(await writesOf(w.space)).toEqual(['DELETE /documents']);
  const trash = (await w.space.call('GET', '/documents', undefined, { location: 'trash' })).items.map((d: { id: string }) => d.id).sort();
  expect(trash).toEqual(['D-CHORE', 'D-IDEA', 'D-NOTE', 'D-PLAN']);
});

it('an emptied mirror is refused with exit 2, nothing deleted in the space', async () => {
  for (const d of ['Unsorted', 'Projects', 'Home', 'Daily Notes']) fs.rmSync(w.file(d), { recursive: true });
  await w.space.clearRequests();
  const refused = await cli('sync', '--once');
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/holds no documents while the journal knows 6/);
  expect(await writesOf(w.space)).toEqual([]);
});

it('a conflict ends sync --once with exit 3 and names the copy', async () => {
  applyLocal(w, [{ edit: 'Unsorted/Note.md', from: 'first paragraph', to: 'first, mine' }]);
  await applyRemote(w, [{ method: 'PUT', path: '/blocks', body: { blocks: [{ id: 'N1', markdown: 'first, theirs' }] } }]);
  const r = await cli('sync', '--once');
  expect(r.code).toBe(3);
  expect(r.stdout).toMatch(/1 conflict: .*\n {2}Unsorted\/Note\.md → Unsorted\/Note \(conflict \d{4}-\d{2}-\d{2} \d{6}\)\.md/);
  const again = await cli('sync', '--once');
  expect(again.code).toBe(0);
});
