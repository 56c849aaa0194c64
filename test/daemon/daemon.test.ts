// The daemon against the real server: scenario 10 (every editor's way of saving is one edit, its
// swap, backup and temp files never sent), 11 (a file written slowly in chunks is pushed whole),
// 23 (the daemon's own writes are never sent back), renames paired by id, and a clean stop.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashText } from '../../src/mirror/index.js';
import type { MirrorChanges, MirrorWatcher, WatchMirrorOptions } from '../../src/mirror/index.js';
import { runDaemon } from '../../src/sync/index.js';
import { type DaemonHandle, type DaemonOptions } from '../../src/sync/daemon/index.js';
import { type PushResult } from '../../src/sync/documents/index.js';
import { readProblems, type SyncOnceResult } from '../../src/sync/cycle/index.js';
import { armFault } from '../client/admin.js';
import { collectionSpace } from '../push/collectionSpace.js';
import { closeWorld, expectConverged, openWorld, remoteBlocks, writesOf, type World } from '../push/pushHarness.js';
import { makeRoot, openSession } from '../pull/harness.js';

let w: World;
let daemon: DaemonHandle;
let pushes: PushResult[];
let cycles: SyncOnceResult[];

async function start(pollMs = 60_000, extra: Partial<DaemonOptions> = {}): Promise<void> {
  pushes = [];
  cycles = [];
  daemon = runDaemon({
    ctx: w.session.ctx,
    pollMinMs: pollMs,
    pollMaxMs: pollMs,
    debounceMs: 80,
    stabilityMs: 150,
    onPush: (r) => pushes.push(r),
    onCycle: (r) => cycles.push(r),
    ...extra,
  });
  await daemon.ready;
  await w.space.clearRequests();
}

async function waitFor(what: string, cond: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const noteHas = async (text: string) => (await remoteBlocks(w.space, 'D-NOTE')).some((b) => b.markdown === text);
const edited = (to: string) => w.read('Unsorted/Note.md').replace('second paragraph', to);

beforeEach(async () => {
  w = await openWorld();
});
afterEach(async () => {
  await daemon.stop();
  await closeWorld(w);
});

describe('editor saves: one edit each, temporary files never sent', () => {
  const file = (name: string) => w.file(`Unsorted/${name}`);
  const saves: Array<[string, (text: string) => void]> = [
    ['in place (VS Code)', (text) => fs.writeFileSync(file('Note.md'), text)],
    [
      'write a temp file, rename it over (vim with backup, swap file and 4913 probe)',
      (text) => {
        fs.writeFileSync(file('.Note.md.swp'), 'swap');
        fs.writeFileSync(file('4913'), '');
        fs.unlinkSync(file('4913'));
        fs.renameSync(file('Note.md'), file('Note.md~'));
        fs.writeFileSync(file('Note.md'), text);
        fs.unlinkSync(file('Note.md~'));
        fs.unlinkSync(file('.Note.md.swp'));
      },
    ],
    [
      'safe write (JetBrains ___jb_tmp___ / ___jb_old___)',
      (text) => {
        fs.writeFileSync(file('Note.md___jb_tmp___'), text);
        fs.renameSync(file('Note.md'), file('Note.md___jb_old___'));
        fs.renameSync(file('Note.md___jb_tmp___'), file('Note.md'));
        fs.unlinkSync(file('Note.md___jb_old___'));
      },
    ],
    [
      'delete and recreate, with an emacs lock and auto-save file left behind',
      (text) => {
        fs.writeFileSync(file('#Note.md#'), 'autosave');
        fs.writeFileSync(file('.#Note.md'), 'lock');
        fs.unlinkSync(file('Note.md'));
        fs.writeFileSync(file('Note.md'), text);
      },
    ],
  ];
  for (const [name, save] of saves) {
    it(name, async () => {
      await start();
      save(edited('second, saved'));
      await waitFor('the edit in the space', () => noteHas('second, saved'));
      expect(await writesOf(w.space)).toEqual(['PUT /blocks']);
      const titles = ((await w.space.call('GET', '/documents')).items as Array<{ title: string }>).map((d) => d.title);
      expect(titles.filter((t) => /Note/.test(t))).toEqual(['Note']);
      expect(w.session.journal.listDocuments().filter((d) => d.path.startsWith('Unsorted/Note'))).toHaveLength(1);
    });
  }
});

it('a collection cell edited while the daemon runs is sent by the push the save starts, not left for the periodic full scan', async () => {
  await closeWorld(w);
  w = await openWorld(collectionSpace);
  await start();
  const polls = cycles.length;
  fs.writeFileSync(w.file('Unsorted/Books.md'), w.read('Unsorted/Books.md').replace('| Dune | Reading |', '| Dune | Done |'));
  await waitFor('the cell sent', async () => (await writesOf(w.space)).includes('PUT /collections/C1/items'));
  expect(cycles.length).toBe(polls);
  expect(pushes.flatMap((p) => p.plan.problems)).toEqual([]);
  await expectConverged(w);
});

it('a large file written slowly in chunks is pushed whole, once', async () => {
  await start();
  const fd = fs.openSync(w.file('Unsorted/Big.md'), 'w');
  const paragraphs = Array.from({ length: 30 }, (_, i) => `paragraph number ${i} of a long note`);
  for (const p of paragraphs) {
    fs.writeSync(fd, `${p}\n\n`);
    await new Promise((r) => setTimeout(r, 30));
  }
  fs.closeSync(fd);
  await waitFor('the document in the space', async () => {
    const docs = (await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
    const big = docs.find((d) => d.title === 'Big');
    return big !== undefined && (await remoteBlocks(w.space, big.id)).length === paragraphs.length;
  });
  expect(await writesOf(w.space)).toEqual(['POST /documents', 'POST /blocks']);
});

it('a renamed file renames its document (paired by its id, though the watcher reports the halves apart), one request', async () => {
  await start();
  fs.renameSync(w.file('Unsorted/Ideas.md'), w.file('Unsorted/Good ideas.md'));
  await waitFor('the rename recorded', () => w.session.journal.getDocument('D-IDEA')!.path === 'Unsorted/Good ideas.md');
  const docs = (await w.space.call('GET', '/documents')).items as Array<{ id: string; title: string }>;
  expect(docs.find((d) => d.id === 'D-IDEA')!.title).toBe('Good ideas');
  expect(await writesOf(w.space)).toEqual(['PUT /blocks']);
});

it("the daemon's own writes are never sent back as edits", async () => {
  await start(200);
  await w.space.call('PUT', '/blocks', { blocks: [{ id: 'N2', markdown: 'second, from the app' }] });
  await w.space.clearRequests();
  await waitFor('the pull to write the file', () => w.read('Unsorted/Note.md').includes('second, from the app'));
  // Long enough for the watcher to have seen the write several times over.
  await new Promise((r) => setTimeout(r, 800));
  expect(pushes.filter((p) => p.outcome !== null)).toEqual([]);
  expect(await writesOf(w.space)).toEqual([]);
  await expectConverged(w);
});

it('stops cleanly: the operation under way finishes, the watcher closes', async () => {
  await start();
  fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, before the stop'));
  await waitFor('the push', () => noteHas('second, before the stop'));
  await daemon.stop();
  await expect(daemon.done).resolves.toBeUndefined();
  fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, after the stop'));
  await new Promise((r) => setTimeout(r, 400));
  expect(await noteHas('second, after the stop')).toBe(false);
  expect(path.basename(w.root)).toBeTruthy();
});

describe('the first pull of a daemon', () => {
  it('the folders it creates itself start no second cycle', async () => {
    // A second, empty mirror of the same space: the daemon's first cycle creates every folder.
    const root = makeRoot();
    const session = await openSession(root, w.space);
    try {
      daemon = runDaemon({ ctx: session.ctx, pollMinMs: 60_000, pollMaxMs: 60_000, debounceMs: 80, stabilityMs: 150 });
      await daemon.ready;
      expect(fs.readdirSync(root).filter((n) => !n.startsWith('.')).length).toBeGreaterThan(0);
      await w.space.clearRequests();
      // Longer than the watcher's debounce, stability and the daemon's grace for removals.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await w.space.requests()).toEqual([]);
    } finally {
      await daemon.stop();
      session.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('poll cycles look at the files the watcher named', () => {
  /** Written as if the daemon wrote it itself: the watcher drops the event, as when it misses one. */
  const writeUnseen = (p: string, text: string) => {
    w.session.ctx.ownWrites!.note(p, hashText(Buffer.from(text)));
    fs.writeFileSync(w.file(p), text);
  };
  const cyclesAfter = async (n: number) => {
    const from = cycles.length;
    await waitFor(`${n} more poll cycles`, () => cycles.length >= from + n);
  };

  it('a file changed with no watcher event is left by the poll cycles and found by the periodic full scan', async () => {
    await start(150, { fullScanMs: 60_000 });
    writeUnseen('Unsorted/Note.md', edited('second, unseen'));
    await cyclesAfter(3);
    expect(await noteHas('second, unseen')).toBe(false);
    // A minute later by the daemon's clock: the next poll cycle scans the whole mirror.
    w.session.ctx.now = () => new Date(Date.now() + 61_000);
    await waitFor('the edit in the space', () => noteHas('second, unseen'));
    expect(await writesOf(w.space)).toEqual(['PUT /blocks']);
  });

  it('a folder made while a full scan runs is looked at by the next full scan, not lost to polls that look only at named files', async () => {
    await start(150, { fullScanMs: 60_000 });
    // The next poll cycle is a full one (a minute later by the daemon's clock), and its listing is slow.
    await armFault(w.space.server, { match: { method: 'GET', path: '^/documents$' }, kind: 'delay', delayMs: 1500, count: 1 });
    w.session.ctx.now = () => new Date(Date.now() + 61_000);
    await new Promise((r) => setTimeout(r, 400));
    fs.mkdirSync(w.file('Fresh'));
    fs.writeFileSync(w.file('Fresh/Inside.md'), 'made while the scan ran\n');
    const titles = async () => ((await w.space.call('GET', '/documents')).items as Array<{ title: string }>).map((d) => d.title);
    await waitFor("the new folder's document in the space", async () => (await titles()).includes('Inside'));
    await waitFor('the file claimed', () => w.read('Fresh/Inside.md').includes('id: '));
    await expectConverged(w);
  });

  it('the files of a push that failed are looked at again by the next poll cycle', async () => {
    await start(2_000, { fullScanMs: 60_000 });
    // Every try of the push's listing fails (the client tries five times): the push sends nothing, and records nothing to settle.
    await armFault(w.space.server, { match: { method: 'GET', path: '/documents' }, kind: '500', count: 5 });
    fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, after a failure'));
    await waitFor('the edit in the space', () => noteHas('second, after a failure'));
    await waitFor('the push recorded', () => w.session.journal.pendingIntents().length === 0);
    await expectConverged(w);
  });
});

describe('what the watcher reports', () => {
  /** A watcher that reports only what the test tells it (the files still change on disk). */
  function toldWatcher() {
    let opts: WatchMirrorOptions | undefined;
    return {
      watch: (_root: string, o: WatchMirrorOptions): MirrorWatcher => {
        opts = o;
        return { ready: Promise.resolve(), close: async () => undefined };
      },
      report: (c: Partial<MirrorChanges>) => opts!.onChanges({ added: [], changed: [], removed: [], addedDirs: [], removedDirs: [], ...c }),
      fail: (e: Error) => opts!.onError!(e),
    };
  }
  const cyclesAfter = async (n: number) => {
    const from = cycles.length;
    await waitFor(`${n} more poll cycles`, () => cycles.length >= from + n);
  };

  it('a watcher error makes the next poll cycle a full scan, which finds a change the watcher missed', async () => {
    const watcher = toldWatcher();
    await start(150, { fullScanMs: 60_000, watch: watcher.watch });
    fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, missed by the watcher'));
    await cyclesAfter(2);
    expect(await noteHas('second, missed by the watcher')).toBe(false);
    watcher.fail(new Error('the watch of a folder failed'));
    await waitFor('the edit in the space', () => noteHas('second, missed by the watcher'), 5_000);
    await expectConverged(w);
  });

  /** `Projects` swapped for a link to a copy outside the mirror, held back by a full scan; returns the copy. */
  async function linkProjects(watcher: ReturnType<typeof toldWatcher>): Promise<string> {
    const outside = `${w.root}.outside`;
    fs.renameSync(w.file('Projects'), outside);
    fs.symlinkSync(outside, w.file('Projects'));
    watcher.report({ removedDirs: ['Projects'] });
    // Held back, and the cycle's report that says so recorded (the daemon learns of the link from it).
    await waitFor('the link held back', () => readProblems(w.session.journal).some((p) => p.key === 'held:symlink:Projects'));
    // Behind the link, a folder and a note of it are made; then the link is replaced with the real folder.
    fs.mkdirSync(path.join(outside, 'Fresh'));
    fs.writeFileSync(path.join(outside, 'Fresh', 'Inside.md'), 'made behind the link\n');
    fs.rmSync(w.file('Projects'));
    fs.renameSync(outside, w.file('Projects'));
    return outside;
  }
  const reachesTheSpace = async () => {
    const titles = async () => ((await w.space.call('GET', '/documents')).items as Array<{ title: string }>).map((d) => d.title);
    await waitFor("the new folder's document in the space", async () => (await titles()).includes('Inside'), 8_000);
    await waitFor('the file claimed', () => w.read('Projects/Fresh/Inside.md').includes('id: '));
    await expectConverged(w);
  };

  it('a folder real again after a symbolic link is looked at whole once its hold clears, though no event named what it holds (chaos seed 1420009)', async () => {
    const watcher = toldWatcher();
    await start(150, { fullScanMs: 600_000, watch: watcher.watch });
    await linkProjects(watcher);
    // The watcher says nothing of it: the poll cycles look at the held link's path, find a folder, and the hold clears.
    await reachesTheSpace();
  });

  it('a directory back where a link was is looked at whole at once, as a folder new to the journal is (chaos seed 1420009)', async () => {
    const watcher = toldWatcher();
    // No poll comes in the test's time: only the watcher's word starts a cycle.
    await start(60_000, { fullScanMs: 600_000, watch: watcher.watch });
    await linkProjects(watcher);
    watcher.report({ addedDirs: ['Projects'] });
    await reachesTheSpace();
  });

  it('a file saved and then moved before its push: the push waits for the other half of the move, nothing trashed, no second document (chaos seed 1020016)', async () => {
    const watcher = toldWatcher();
    await start(60_000, { watch: watcher.watch });
    fs.writeFileSync(w.file('Unsorted/Ideas.md'), w.read('Unsorted/Ideas.md').replace('an idea', 'an idea, saved'));
    fs.renameSync(w.file('Unsorted/Ideas.md'), w.file('Home/Ideas.md'));
    // The save's event comes first; the move's two halves later (after the debounce, within the grace).
    watcher.report({ changed: ['Unsorted/Ideas.md'] });
    await new Promise((r) => setTimeout(r, 500));
    expect(await writesOf(w.space)).toEqual([]);
    watcher.report({ removed: ['Unsorted/Ideas.md'], added: ['Home/Ideas.md'] });
    await waitFor('the move recorded', () => w.session.journal.getDocument('D-IDEA')?.path === 'Home/Ideas.md', 10_000);
    const home = (await w.space.call('GET', '/documents?folderId=F-HOME')).items as Array<{ id: string }>;
    expect(home.map((d) => d.id)).toContain('D-IDEA');
    expect(((await w.space.call('GET', '/documents')).items as Array<{ title: string }>).filter((d) => d.title === 'Ideas')).toHaveLength(1);
    expect((await remoteBlocks(w.space, 'D-IDEA')).map((b) => b.markdown)).toEqual(['an idea, saved']);
    expect(await writesOf(w.space)).not.toContain('DELETE /documents');
    await expectConverged(w);
  });

  it('a held-back file gone with no word of the watcher: no push takes it for deleted, and the next poll cycle looks at the whole mirror (chaos seed 1180013)', async () => {
    const watcher = toldWatcher();
    await start(400, { fullScanMs: 60_000, watch: watcher.watch });
    // Emptied to its front matter: held back (it would wipe its document).
    fs.writeFileSync(w.file('Unsorted/Ideas.md'), w.read('Unsorted/Ideas.md').match(/^---\n[\s\S]*?\n---\n/)![0]);
    watcher.report({ changed: ['Unsorted/Ideas.md'] });
    await waitFor('it held back', () => pushes.some((p) => p.plan.heldBack.some((h) => h.path === 'Unsorted/Ideas.md' && h.reason === 'wipe')));
    // Moved while the watcher said nothing (a daemon started after the move, say); then another
    // file saved, whose push takes the held-back files along.
    fs.renameSync(w.file('Unsorted/Ideas.md'), w.file('Home/Ideas.md'));
    const cyclesBefore = cycles.length;
    fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, saved'));
    watcher.report({ changed: ['Unsorted/Note.md'] });
    await waitFor('the save in the space', () => noteHas('second, saved'));
    await waitFor('a poll cycle', () => cycles.length > cyclesBefore);
    expect(await writesOf(w.space)).not.toContain('DELETE /documents');
    expect(cycles.at(-1)!.push.plan.heldBack).toContainEqual(expect.objectContaining({ path: 'Home/Ideas.md', reason: 'wipe' }));
    const trashed = (await w.space.call('GET', '/documents', undefined, { location: 'trash' })).items as Array<{ id: string }>;
    expect(trashed.map((d) => d.id)).not.toContain('D-IDEA');
  });

  it('a file the watcher names while a poll cycle runs is looked at after that cycle', async () => {
    const watcher = toldWatcher();
    await start(150, { fullScanMs: 60_000, watch: watcher.watch });
    // The next poll cycle waits a second for its folder listing; the save is reported meanwhile.
    await armFault(w.space.server, { match: { method: 'GET', path: '^/folders$' }, kind: 'delay', delayMs: 1000, count: 1 });
    const before = cycles.length;
    // Past the 150 ms poll interval: the next cycle is waiting for its folders.
    await new Promise((r) => setTimeout(r, 400));
    const running = cycles.length;
    fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, saved during a cycle'));
    watcher.report({ changed: ['Unsorted/Note.md'] });
    await cyclesAfter(1);
    expect(running - before).toBeLessThanOrEqual(1);
    await waitFor('the edit in the space', () => noteHas('second, saved during a cycle'), 5_000);
    await expectConverged(w);
  });
});

describe('a decision held back for another file', () => {
  it('deletions held while an unreadable file may be one of them moved go out as soon as that file is removed', async () => {
    await start();
    fs.writeFileSync(w.file('Unsorted/garbled.md'), Buffer.from([0xff, 0xfe, 0x00, 0x62]));
    fs.unlinkSync(w.file('Projects/Plan.md'));
    fs.unlinkSync(w.file('Unsorted/Ideas.md'));
    await waitFor('the deletions to be held back', () => pushes.some((p) => p.plan.heldBack.filter((h) => h.reason === 'deletion').length === 2));
    const held = pushes.findLast((p) => p.plan.heldBack.some((h) => h.reason === 'deletion'))!.plan.heldBack;
    expect(held.map((h) => `${h.path} ${h.reason}`).sort()).toEqual([
      'Projects/Plan.md deletion',
      'Unsorted/Ideas.md deletion',
      'Unsorted/garbled.md undecodable',
    ]);
    expect(held.find((h) => h.path === 'Unsorted/Ideas.md')!.message).toBe(
      '"Unsorted/Ideas.md" is gone, but Unsorted/garbled.md cannot be read and may be it, moved: its document is not moved to the trash until that file is saved as UTF-8 or removed.',
    );
    expect(await writesOf(w.space)).toEqual([]);
    // Its reason gone, the deletion is made again by the push the removal starts (the poll is a minute away).
    const cyclesBefore = cycles.length;
    fs.unlinkSync(w.file('Unsorted/garbled.md'));
    await waitFor('the deletions to be sent', async () => (await writesOf(w.space)).includes('DELETE /documents'));
    expect(cycles).toHaveLength(cyclesBefore);
    const trashed = (await w.space.call('GET', '/documents', undefined, { location: 'trash' })).items as Array<{ id: string }>;
    expect(trashed.map((d) => d.id).sort()).toEqual(['D-IDEA', 'D-PLAN']);
  });
});

describe('an edit waiting for the rate limit', () => {
  it('status keeps the end of the wait true when the wait goes on past it (the service answers 429 again)', async () => {
    const { readWait } = await import('../../src/journal/daemonStatus.js');
    await armFault(w.space.server, { match: { method: 'PUT', path: '/blocks' }, kind: '429', retryAfter: 4, count: 2 });
    const told: number[] = [];
    await start(60_000, {
      userWaits: (l) => w.session.client.scheduler.onUserWait(l),
      onWait: (x) => told.push(x.waitMs),
    });
    fs.writeFileSync(w.file('Unsorted/Note.md'), edited('second, waited for'));
    await waitFor('the wait to be told', () => told.length === 1);
    const first = readWait(w.session.journal)!;
    expect(Date.parse(first.until) - Date.parse(first.since)).toBeGreaterThanOrEqual(3_000);
    // The second 429: the wait is longer than first said; status is told its new end, the terminal is not told twice.
    await waitFor(
      'the wait to be recorded again',
      () => {
        const now = readWait(w.session.journal);
        return now !== undefined && Date.parse(now.until) > Date.parse(first.until) + 1_000;
      },
      20_000,
    );
    expect(readWait(w.session.journal)!.since).toBe(first.since);
    expect(told).toHaveLength(1);
    await waitFor('the edit to be sent', () => noteHas('second, waited for'), 20_000);
    await waitFor('the wait to be cleared', () => readWait(w.session.journal) === undefined);
  }, 40_000);
});

describe("the daemon's reports", () => {
  it('a held-back file is told once when it appears and once when it clears, not at every poll', async () => {
    const appeared: string[] = [];
    const cleared: string[] = [];
    await start(100, {
      onReport: (_r, p) => {
        appeared.push(...p.appeared.map((x) => x.key));
        cleared.push(...p.cleared.map((x) => x.key));
      },
    });
    const text = w.read('Unsorted/Note.md');
    fs.writeFileSync(w.file('Unsorted/Note.md'), '');
    await waitFor('the file to be held back', () => appeared.includes('held:wipe:Unsorted/Note.md'));
    // Thirty polls and more later, it was said once.
    const polls = cycles.length;
    await waitFor('thirty polls', () => cycles.length >= polls + 30, 20_000);
    expect(appeared.filter((k) => k === 'held:wipe:Unsorted/Note.md')).toHaveLength(1);
    fs.writeFileSync(w.file('Unsorted/Note.md'), text);
    await waitFor('the problem to clear', () => cleared.includes('held:wipe:Unsorted/Note.md'));
    expect(appeared.filter((k) => k === 'held:wipe:Unsorted/Note.md')).toHaveLength(1);
  }, 40_000);
});
