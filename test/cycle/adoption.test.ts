// A mirror whose journal was lost (moved aside, deleted, left at 0 bytes) is adopted, not synced as
// new notes: nothing is uploaded or merged again, a file that differs from its document becomes a
// conflict copy, a file naming a document the space no longer has is held back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { FATAL_CODES } from '../../src/sync/daemon/index.js';
import { pushSaved } from '../../src/sync/cycle/index.js';
import { isSpacesyncError } from '../../src/errors.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

let space: Space;
let root: string;

/** One cycle in a session of its own, as `spacesync sync --once` runs it. */
async function cycle() {
  const session = await openSession(root, space);
  try {
    return await syncOnce(session.ctx);
  } finally {
    session.close();
  }
}

const journal = () => path.join(root, '.spacesync', 'journal.db');
const loseJournal = () => {
  for (const f of fs.readdirSync(path.dirname(journal()))) if (f.startsWith('journal.db')) fs.rmSync(path.join(path.dirname(journal()), f));
};
const file = (p: string) => path.join(root, ...p.split('/'));
const writes = async () => (await space.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const blockCount = async () => {
  let n = 0;
  for (const d of (await space.call('GET', '/documents')).items as Array<{ id: string }>) {
    const count = (b: { content?: unknown[] }): number => 1 + (b.content ?? []).reduce<number>((s, c) => s + count(c as { content?: unknown[] }), 0);
    n += count(await space.call('GET', '/blocks', undefined, { id: d.id }));
  }
  return n;
};

beforeEach(async () => {
  space = await startSpace(demo);
  root = makeRoot();
  expect((await cycle()).exitCode).toBe(0);
}, 60_000);
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a mirror without its journal', () => {
  it("lets no push of saved files run inside the adoption's pull (the daemon's edits waiting): the folder has no base until it is done", async () => {
    loseJournal();
    fs.appendFileSync(file('Personal/Groceries.md'), '\nsaved while the journal was away\n');
    const session = await openSession(root, space);
    let pushes = 0;
    session.ctx.editsWaiting = {
      waiting: () => true,
      push: async () => void pushes++,
      onSaved: () => () => undefined,
    };
    try {
      const r = await syncOnce(session.ctx);
      expect(r.adoption).toBeDefined();
      expect(r.adoption!.conflicts.map((c) => c.path)).toContain('Personal/Groceries.md');
    } finally {
      session.close();
    }
    // The cycle's own pull, after the adoption, may let them go; the adoption's never does.
    expect(pushes).toBeLessThanOrEqual(1);
    expect(await writes()).not.toContain('POST /blocks');
  });

  it("sends no saved file while the adoption is pending (the daemon's push between cycles): it waits for the cycle that compares it", async () => {
    loseJournal();
    fs.writeFileSync(file('Personal/Groceries.md'), '---\nstale: an old copy saved over the file\n---\nmilk\n');
    const session = await openSession(root, space);
    try {
      await space.clearRequests();
      const saved = await pushSaved(session.ctx, ['Personal/Groceries.md']);
      expect(saved.push.outcome).toBeNull();
      expect(await writes()).toEqual([]);
      // The cycle adopts the folder: the file differs from its document, so it is a conflict copy.
      const r = await syncOnce(session.ctx);
      expect(r.adoption!.conflicts.map((c) => c.path)).toEqual(['Personal/Groceries.md']);
      expect(await writes()).toEqual([]);
    } finally {
      session.close();
    }
  });

  it('is adopted: files in step stay, one changed on either side is a conflict copy, nothing is uploaded or merged again', async () => {
    const before = readTree(root);
    const blocks = await blockCount();
    // Changed here while the journal was away; and a document changed in the space meanwhile.
    fs.appendFileSync(file('Personal/Groceries.md'), '\nline EDITED LOCALLY\n');
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const recipes = docs.find((d) => d.title === 'Recipes')!;
    const tree = await space.call('GET', '/blocks', undefined, { id: recipes.id });
    await space.call('PUT', '/blocks', { blocks: [{ id: tree.content[0].id, markdown: 'EDITED REMOTELY' }] });
    loseJournal();
    await space.clearRequests();

    const r = await cycle();
    expect(r.adoption).toMatchObject({ written: [], moved: [], aside: [], orphans: [], restore: false });
    expect(r.adoption!.conflicts.map((c) => c.path).sort()).toEqual(['Personal/Groceries.md', 'Personal/Recipes.md']);
    expect(r.adoption!.inStep).toBeGreaterThan(25);
    expect(r.exitCode).toBe(3);
    expect(await writes()).toEqual([]);
    expect(await blockCount()).toBe(blocks);

    // The space's version is in each file, the one found here in its conflict copy; every other file is as it was.
    const after = readTree(root);
    const copyOf = (p: string) => r.adoption!.conflicts.find((c) => c.path === p)!.copy;
    expect(after.get(copyOf('Personal/Groceries.md'))!.text).toContain('line EDITED LOCALLY');
    expect(after.get('Personal/Groceries.md')!.text).not.toContain('EDITED LOCALLY');
    expect(after.get('Personal/Recipes.md')!.text).toContain('EDITED REMOTELY');
    expect(after.get(copyOf('Personal/Recipes.md'))!.text).toBe(before.get('Personal/Recipes.md')!.text);
    // (A link to an asset the space could not serve keeps its signed URL, which is signed anew at each read.)
    const unsigned = (t: string | null | undefined) => t?.replace(/\?expires=[^)\s]*\)/g, ')');
    for (const [p, v] of before)
      if (!p.startsWith('Personal/Groceries') && !p.startsWith('Personal/Recipes')) expect(unsigned(after.get(p)?.text), p).toBe(unsigned(v.text));
    const session = await openSession(root, space);
    try {
      expect(
        session.journal
          .listConflicts()
          .map((c) => c.path)
          .sort(),
      ).toEqual(['Personal/Groceries.md', 'Personal/Recipes.md']);
    } finally {
      session.close();
    }

    // And the next cycle is an ordinary one with nothing to do.
    await space.clearRequests();
    const next = await cycle();
    expect(next.adoption).toBeUndefined();
    expect(next.exitCode).toBe(0);
    expect(await writes()).toEqual([]);
  }, 60_000);

  it('an empty journal file is the same case; a file found at another place goes back to the space’s, where the space renamed it too', async () => {
    // Without a base nothing says which side moved it: a file moved here…
    fs.renameSync(file('Personal/Recipes.md'), file('Work/Recipes.md'));
    loseJournal();
    fs.writeFileSync(journal(), '');
    // …and a document renamed in the space while the journal was away look the same.
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const books = docs.find((d) => d.title === 'Books to read')!;
    await space.call('PUT', '/blocks', { blocks: [{ id: books.id, markdown: 'Books to buy' }] });
    await space.clearRequests();
    const r = await cycle();
    expect(r.adoption).toMatchObject({
      conflicts: [],
      moved: [
        { from: 'Personal/Books to read.md', to: 'Personal/Books to buy.md' },
        { from: 'Work/Recipes.md', to: 'Personal/Recipes.md' },
      ],
    });
    expect(r.exitCode).toBe(0);
    // The space's names win, as its text wins a conflict: nothing is sent, no title is undone.
    expect(await writes()).toEqual([]);
    expect(fs.existsSync(file('Personal/Recipes.md'))).toBe(true);
    expect(fs.existsSync(file('Work/Recipes.md'))).toBe(false);
    expect(fs.existsSync(file('Personal/Books to read.md'))).toBe(false);
    const after = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    expect(after.find((d) => d.id === books.id)!.title).toBe('Books to buy');
  }, 60_000);

  it('a link typed to where a file was found names its document once the file went back to the space’s place (chaos seed 1090095)', async () => {
    fs.renameSync(file('Personal/Recipes.md'), file('Work/Recipes.md'));
    fs.writeFileSync(file('Work/Links.md'), 'See [the recipes](Recipes.md) for dinner.\n');
    loseJournal();
    const r = await cycle();
    expect(r.adoption).toMatchObject({ moved: [{ from: 'Work/Recipes.md', to: 'Personal/Recipes.md' }] });
    await cycle();
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const recipes = docs.find((d) => d.title === 'Recipes')!;
    const links = docs.find((d) => d.title === 'Links')!;
    const sent = JSON.stringify(await space.call('GET', '/blocks', undefined, { id: links.id }));
    // Not the dead relative path: the document it named.
    expect(sent).toContain(`[the recipes](block://${recipes.id})`);
    expect(sent).not.toContain('(Recipes.md)');
    expect(fs.readFileSync(file('Work/Links.md'), 'utf8')).toContain('[the recipes](../Personal/Recipes.md)');
  }, 60_000);

  it('waits while a folder it would write to is a symbolic link: nothing applied or sent, the daemon not stopped; it runs once the folder is real again (chaos seed 1170026)', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-outside-'));
    try {
      fs.renameSync(file('Personal'), path.join(outside, 'Personal'));
      fs.symlinkSync(path.join(outside, 'Personal'), file('Personal'));
      const before = fs.readdirSync(path.join(outside, 'Personal')).sort();
      // Elsewhere a file that differs from its document: it would become a conflict copy.
      fs.appendFileSync(file('Work/Q3 goals.md'), '\nedited while the journal was away\n');
      loseJournal();
      await space.clearRequests();
      const e = await cycle().catch((x: unknown) => x);
      expect(isSpacesyncError(e, 'mirror_symlink')).toBe(true);
      expect((e as Error).message).toContain('"Personal" is a symbolic link');
      expect(FATAL_CODES.has('mirror_symlink')).toBe(false);
      expect(await writes()).toEqual([]);
      // Nothing of the adoption applied: no file moved aside or written, nothing behind the link touched.
      expect(fs.readdirSync(path.join(outside, 'Personal')).sort()).toEqual(before);
      expect(fs.existsSync(path.join(root, '.spacesync', 'adopt'))).toBe(false);
      expect(fs.readdirSync(file('Work')).filter((n) => n.includes('conflict'))).toEqual([]);
      expect(fs.readFileSync(file('Work/Q3 goals.md'), 'utf8')).toContain('edited while the journal was away');
      fs.rmSync(file('Personal'));
      fs.renameSync(path.join(outside, 'Personal'), file('Personal'));
      const r = await cycle();
      expect(r.adoption).toMatchObject({ conflicts: [expect.objectContaining({ path: 'Work/Q3 goals.md' })], written: [] });
      expect(await writes()).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);

  it('waits while a folder of the mirror is a symbolic link, even where no step goes: the notes behind it are compared once it is real, not sent again as copies (chaos seed 1450063)', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'spacesync-outside-'));
    try {
      loseJournal();
      // Moved here under another name, and that folder is a link while the journal is away.
      fs.renameSync(file('Personal'), path.join(outside, 'Personal'));
      fs.symlinkSync(path.join(outside, 'Personal'), file('Elsewhere'));
      await space.clearRequests();
      const e = await cycle().catch((x: unknown) => x);
      expect(isSpacesyncError(e, 'mirror_symlink')).toBe(true);
      expect((e as Error).message).toContain('"Elsewhere" is a symbolic link');
      expect(await writes()).toEqual([]);
      expect(fs.existsSync(file('Personal'))).toBe(false);
      fs.rmSync(file('Elsewhere'));
      fs.renameSync(path.join(outside, 'Personal'), file('Elsewhere'));
      const r = await cycle();
      expect(r.adoption!.moved.map((m) => m.to).sort()).toEqual(expect.arrayContaining(['Personal/Groceries.md']));
      await cycle();
      expect(await writes()).not.toContain('POST /documents');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);

  it('a note moved here with its .assets folder goes back with it, and no asset is uploaded again', async () => {
    const note = [...readTree(root).keys()].find((p) => p.endsWith('/Mobile app.md'))!;
    const assets = note.replace(/\.md$/, '.assets');
    const inside = fs.readdirSync(file(assets));
    expect(inside.length).toBeGreaterThan(0);
    fs.renameSync(file(note), file('Personal/Engine.md'));
    fs.renameSync(file(assets), file('Personal/Engine.assets'));
    loseJournal();
    await space.clearRequests();
    const r = await cycle();
    expect(r.adoption).toMatchObject({ conflicts: [], written: [], moved: [{ from: 'Personal/Engine.md', to: note }] });
    expect(await writes()).toEqual([]);
    expect(fs.readdirSync(file(assets)).sort()).toEqual([...inside].sort());
    expect(fs.existsSync(file('Personal/Engine.assets'))).toBe(false);
  }, 60_000);

  it('a file that is not UTF-8 still names its document: where the space moved that document, the file is its conflict copy, not a second document once saved (chaos seed 950087)', async () => {
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const recipes = docs.find((d) => d.title === 'Recipes')!;
    const saved = fs.readFileSync(file('Personal/Recipes.md'), 'utf8');
    const bytes = Buffer.from(`${saved.replace(/\n$/, '')} caf\u00e9\n`, 'latin1');
    fs.writeFileSync(file('Personal/Recipes.md'), bytes);
    loseJournal();
    const work = ((await space.call('GET', '/folders')).items as Array<{ id: string; name: string }>).find((f) => f.name === 'Work')!;
    await space.call('PUT', '/documents/move', { documentIds: [recipes.id], destination: { folderId: work.id } });
    await space.clearRequests();
    const r = await cycle();
    expect(r.adoption!.conflicts).toEqual([{ path: 'Work/Recipes.md', copy: expect.stringMatching(/^Personal\/Recipes \(conflict .*\)\.md$/) }]);
    const copy = r.adoption!.conflicts[0]!.copy;
    expect(fs.readFileSync(file(copy)).equals(bytes)).toBe(true);
    expect(fs.existsSync(file('Personal/Recipes.md'))).toBe(false);
    // Saved as UTF-8 again: a conflict copy, which names the document and is never sent.
    fs.writeFileSync(file(copy), `${saved.replace(/\n$/, '')} caf\u00e9\n`);
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual([]);
    const after = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    expect(after.filter((d) => d.title.startsWith('Recipes'))).toEqual([expect.objectContaining({ id: recipes.id })]);
  }, 60_000);

  it('a file naming a document the space no longer has is held back, not sent as a new document', async () => {
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const recipes = docs.find((d) => d.title === 'Recipes')!;
    loseJournal();
    // Deleted and purged in the space while the journal was away.
    await space.call('DELETE', '/documents', { documentIds: [recipes.id] });
    space.clock.t += 31 * 86_400_000; // the service purges its trash after 30 days
    await space.clearRequests();
    const r = await cycle();
    // The two documents of the demo's trash were purged with it: their files in Trash/ are orphans too.
    expect(r.adoption!.orphans).toEqual(['Personal/Recipes.md', 'Trash/Old draft.md', 'Trash/Q3 goals (copy).md']);
    expect(r.push.plan.heldBack.map((h) => `${h.path} ${h.reason}`)).toEqual(r.adoption!.orphans.map((p) => `${p} orphan`));
    expect(await writes()).toEqual([]);
    expect(fs.existsSync(file('Personal/Recipes.md'))).toBe(true);
  }, 60_000);

  it('a document put in the trash between the listing and the look at its folder is compared again, not taken for an orphan and sent (chaos seed 1310077)', async () => {
    const docs = (await space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const recipes = docs.find((d) => d.title === 'Recipes')!;
    // The trash emptied (the service purges it after 30 days): no folder of the trash to read.
    space.clock.t += 31 * 86_400_000;
    expect((await cycle()).exitCode).toBe(0);
    loseJournal();
    const session = await openSession(root, space);
    // The space lists it, then it goes to the trash before any folder's members are read.
    const list = session.ctx.client.listDocuments.bind(session.ctx.client);
    let trashed: Promise<unknown> | undefined;
    session.ctx.client.listDocuments = async (query, opts) => {
      if (query && ('location' in query || 'folderId' in query)) await (trashed ??= space.call('DELETE', '/documents', { documentIds: [recipes.id] }));
      return list(query, opts);
    };
    await space.clearRequests();
    try {
      const err = await syncOnce(session.ctx).catch((e: unknown) => e);
      expect(isSpacesyncError(err) && err.code).toBe('server');
      expect((err as Error).message).toContain('"Personal/Recipes.md" names moved in the space while it was compared');
    } finally {
      session.close();
    }
    expect(trashed).toBeDefined();
    // The next cycle finds it in the trash: the file goes there, as a pull would have moved it.
    const r = await cycle();
    expect(r.adoption).toMatchObject({ orphans: [], moved: [{ from: 'Personal/Recipes.md', to: 'Trash/Recipes.md' }] });
    expect(r.exitCode).toBe(0);
    expect((await cycle()).exitCode).toBe(0);
    expect(await writes()).toEqual(['DELETE /documents']);
    expect(fs.existsSync(file('Personal/Recipes.md'))).toBe(false);
  }, 60_000);

  it('an adoption stopped halfway starts over: what it recorded and left in .spacesync/adopt/ is forgotten', async () => {
    loseJournal();
    const first = await openSession(root, space);
    // A run that recorded half a pull beside the mirror, then was killed.
    first.journal.upsertDocument({
      id: 'GHOST',
      path: 'Ghost.md',
      title: 'Ghost',
      location: 'unsorted',
      folderId: null,
      dailyNoteDate: null,
      createdAt: null,
      remoteModifiedAt: null,
      fileHash: 'x',
    });
    first.close();
    fs.mkdirSync(path.join(root, '.spacesync', 'adopt', 'Junk'), { recursive: true });
    fs.writeFileSync(path.join(root, '.spacesync', 'adopt', 'Junk', 'Half.md'), 'half');
    await space.clearRequests();
    const r = await cycle();
    expect(r.adoption).toMatchObject({ conflicts: [], written: [], orphans: [] });
    expect(r.exitCode).toBe(0);
    expect(await writes()).toEqual([]);
    expect(fs.existsSync(path.join(root, '.spacesync', 'adopt'))).toBe(false);
    expect(fs.existsSync(file('Junk/Half.md'))).toBe(false);
  }, 60_000);
});
