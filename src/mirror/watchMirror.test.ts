import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIgnore } from './createIgnore.js';
import { moveFileAtomic, writeFileAtomic } from './atomicWrites.js';
import { OwnWrites } from './OwnWrites.js';
import { useTempDir } from '../../test/support/testDir.js';
import { watchMirror, type MirrorChanges, type MirrorWatcher, type WatchMirrorOptions } from './watchMirror.js';

const root = useTempDir('spacesync-watch-');
const abs = (rel: string) => path.join(root(), ...rel.split('/'));
const put = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(abs(rel)), { recursive: true });
  fs.writeFileSync(abs(rel), text);
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let watcher: MirrorWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
});

/** Starts a watcher that records every reported change as `kind:path`, in order. */
async function start(extra: Partial<WatchMirrorOptions> & { patterns?: string[] } = {}) {
  const reported: string[] = [];
  const errors: Error[] = [];
  let wake = () => {};
  watcher = watchMirror(root(), {
    ignore: createIgnore(extra.patterns ?? []),
    debounceMs: 50,
    stabilityMs: 100,
    onChanges: (c: MirrorChanges) => {
      for (const [kind, paths] of Object.entries(c) as Array<[string, string[]]>) for (const p of paths) reported.push(`${kind}:${p}`);
      extra.onChanges?.(c);
      wake();
    },
    onError: (e) => errors.push(e),
    ...(extra.ownWrites ? { ownWrites: extra.ownWrites } : {}),
    ...(extra.stabilityMs ? { stabilityMs: extra.stabilityMs } : {}),
  });
  await watcher.ready;
  /** Waits until `entry` has been reported (event-driven; the timeout only bounds a failure). */
  const until = (entry: string, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (reported.includes(entry)) resolve();
      };
      const t = setTimeout(() => reject(new Error(`"${entry}" was not reported; got ${JSON.stringify(reported)}`)), timeoutMs);
      wake = () => {
        check();
        if (reported.includes(entry)) clearTimeout(t);
      };
      wake();
    });
  /** Writes a new file and waits for it: every earlier event has then been reported. */
  let n = 0;
  const settle = async () => {
    const sentinel = `zz-sentinel-${n++}.md`;
    put(sentinel, 's');
    await until(`added:${sentinel}`);
    return reported.filter((r) => !r.includes('zz-sentinel-'));
  };
  return { reported, errors, until, settle };
}

describe('watchMirror: editor saves are one change of the real file', () => {
  it('in place (VS Code): truncate, then write', async () => {
    put('A.md', 'v1');
    const w = await start();
    const fd = fs.openSync(abs('A.md'), 'r+');
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, 'v2 longer', 0);
    fs.closeSync(fd);
    await w.until('changed:A.md');
    expect(await w.settle()).toEqual(['changed:A.md']);
    expect(w.errors).toEqual([]);
  });

  it('vim: swap file, 4913 probe, backup rename, new file, backup removed', async () => {
    put('A.md', 'v1');
    const w = await start();
    put('.A.md.swp', 'swap');
    put('4913', '');
    fs.unlinkSync(abs('4913'));
    fs.renameSync(abs('A.md'), abs('A.md~'));
    put('A.md', 'v2');
    fs.unlinkSync(abs('A.md~'));
    put('.A.md.swp', 'swap 2');
    fs.unlinkSync(abs('.A.md.swp'));
    await w.until('changed:A.md');
    expect(await w.settle()).toEqual(['changed:A.md']);
  });

  it('JetBrains safe write: temp, old renamed aside, temp renamed in, old removed', async () => {
    put('A.md', 'v1');
    const w = await start();
    put('A.md___jb_tmp___', 'v2');
    fs.renameSync(abs('A.md'), abs('A.md___jb_old___'));
    fs.renameSync(abs('A.md___jb_tmp___'), abs('A.md'));
    fs.unlinkSync(abs('A.md___jb_old___'));
    await w.until('changed:A.md');
    expect(await w.settle()).toEqual(['changed:A.md']);
  });

  it('write-temp-then-rename with a temp name that is not ignored by name (write-file-atomic)', async () => {
    put('Notes/A.md', 'v1');
    const w = await start();
    put('Notes/A.md.3728412', 'v2');
    fs.renameSync(abs('Notes/A.md.3728412'), abs('Notes/A.md'));
    await w.until('changed:Notes/A.md');
    expect(await w.settle()).toEqual(['changed:Notes/A.md']);
  });

  it('delete and recreate', async () => {
    put('A.md', 'v1');
    const w = await start();
    fs.unlinkSync(abs('A.md'));
    put('A.md', 'v2');
    await w.until('changed:A.md');
    expect(await w.settle()).toEqual(['changed:A.md']);
  });

  it('emacs: lock link, auto-save file, backup, save, clean-up', async () => {
    put('A.md', 'v1');
    const w = await start();
    fs.symlinkSync('user@host.1234', abs('.#A.md'));
    put('#A.md#', 'autosave');
    fs.renameSync(abs('A.md'), abs('A.md~'));
    put('A.md', 'v2');
    fs.unlinkSync(abs('#A.md#'));
    fs.unlinkSync(abs('.#A.md'));
    await w.until('changed:A.md');
    expect(await w.settle()).toEqual(['changed:A.md']);
  });
});

describe('watchMirror: what is reported', () => {
  it('new, removed, folders, and files under a new folder', async () => {
    put('Old/B.md', 'b');
    put('C.md', 'c');
    const w = await start();
    put('New/Deep/A.md', 'a');
    fs.rmSync(abs('Old'), { recursive: true });
    fs.unlinkSync(abs('C.md'));
    await w.until('removedDirs:Old');
    await w.until('added:New/Deep/A.md');
    expect((await w.settle()).sort()).toEqual([
      'added:New/Deep/A.md',
      'addedDirs:New',
      'addedDirs:New/Deep',
      'removed:C.md',
      'removed:Old/B.md',
      'removedDirs:Old',
    ]);
  });

  it('never reports ignored files, conflict copies, non-documents, symbolic links, or a file that came and went', async () => {
    put('A (conflict 2026-11-21 093005).md', 'v1');
    put('Target.txt', 't');
    fs.symlinkSync(abs('Target.txt'), abs('OldLink.md'));
    const w = await start({ patterns: ['Drafts/'] });
    fs.unlinkSync(abs('OldLink.md'));
    fs.symlinkSync(abs('Target.txt'), abs('NewLink.md'));
    put('A (conflict 2026-11-21 093005).md', 'edited copy');
    put('Drafts/Idea.md', 'x');
    put('image.png', 'png');
    put('.spacesync/journal.db', 'x');
    put('Brief.md', 'x');
    fs.unlinkSync(abs('Brief.md'));
    expect(await w.settle()).toEqual([]);
  });

  it('does not report a file still being written until its size holds', async () => {
    const chunks = Array.from({ length: 8 }, (_, i) => `chunk ${i} ${'x'.repeat(20_000)}\n`);
    const full = chunks.join('');
    const seenAtReport: string[] = [];
    const w = await start({
      stabilityMs: 800,
      onChanges: (c) => {
        if (c.added.includes('Big.md')) seenAtReport.push(fs.readFileSync(abs('Big.md'), 'utf8'));
      },
    });
    const fd = fs.openSync(abs('Big.md'), 'w');
    for (const chunk of chunks) {
      fs.writeSync(fd, chunk);
      await pause(40); // a slow writer: quiet gaps longer than the debounce, shorter than the stability wait
    }
    fs.closeSync(fd);
    await w.until('added:Big.md');
    expect(seenAtReport.map((t) => t.length)).toEqual([full.length]);
    expect(w.reported.filter((r) => r.endsWith('Big.md'))).toEqual(['added:Big.md']);
  });
});

describe("watchMirror: the daemon's own writes", () => {
  it('drops events caused by its own writes and moves, but reports a user edit after them', async () => {
    put('A.md', 'v1');
    put('M.md', 'm');
    const own = new OwnWrites();
    const w = await start({ ownWrites: own });
    await writeFileAtomic(root(), 'A.md', 'pulled from the service', { ownWrites: own });
    await writeFileAtomic(root(), 'Projects/New.md', 'new remote document', { ownWrites: own });
    await moveFileAtomic(root(), 'M.md', 'Projects/M.md', { ownWrites: own });
    expect((await w.settle()).filter((r) => !r.startsWith('addedDirs:'))).toEqual([]);
    put('A.md', 'user edit');
    await w.until('changed:A.md');
    expect((await w.settle()).filter((r) => !r.startsWith('addedDirs:'))).toEqual(['changed:A.md']);
  });
});

describe('watchMirror: a file the daemon wrote, removed before the watcher looked', () => {
  it('is reported removed: the journal knows it, the user deleted it', async () => {
    const own = new OwnWrites();
    const w = await start({ ownWrites: own });
    // A pull writes a new document's file; the user deletes it before the batch is read.
    await writeFileAtomic(root(), 'Pulled.md', 'new remote document', { ownWrites: own });
    fs.unlinkSync(abs('Pulled.md'));
    // A stranger's file that comes and goes is still nobody's news.
    put('Scratch.md', 'x');
    fs.unlinkSync(abs('Scratch.md'));
    await w.until('removed:Pulled.md');
    expect(await w.settle()).toEqual(['removed:Pulled.md']);
  });
});

describe('watchMirror: one watch per folder', () => {
  /** Native watches open now (a closed one is gone once the event loop has passed its close phase). */
  const nativeWatches = async () => {
    for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
    return process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
  };

  it('holds one native watch per watched folder and none per file, and closes them all', async () => {
    for (const dir of ['A', 'A/Deep', 'B']) for (let i = 0; i < 20; i++) put(`${dir}/Doc ${i}.md`, `${i}`);
    put('Top.md', 't');
    put('Drafts/Idea.md', 'ignored folder: not watched');
    const before = await nativeWatches();
    await start({ patterns: ['Drafts/'] });
    expect((await nativeWatches()) - before).toBe(4); // the root, A, A/Deep, B
    await watcher!.close();
    watcher = undefined;
    expect(await nativeWatches()).toBe(before);
  });

  it('a folder made after the start is watched: a file written in it later, and its edit, are reported', async () => {
    const w = await start();
    fs.mkdirSync(abs('Later'));
    await w.until('addedDirs:Later');
    put('Later/A.md', 'a');
    await w.until('added:Later/A.md');
    put('Later/A.md', 'a, edited');
    await w.until('changed:Later/A.md');
    expect(await w.settle()).toEqual(['addedDirs:Later', 'added:Later/A.md', 'changed:Later/A.md']);
  });

  it('a folder renamed: its files move with it and are watched at the new place only', async () => {
    put('Old/A.md', 'a');
    const w = await start();
    fs.renameSync(abs('Old'), abs('New'));
    await w.until('added:New/A.md');
    expect((await w.settle()).sort()).toEqual(['added:New/A.md', 'addedDirs:New', 'removed:Old/A.md', 'removedDirs:Old']);
    w.reported.length = 0;
    put('New/A.md', 'a, edited');
    await w.until('changed:New/A.md');
    expect(await w.settle()).toEqual(['changed:New/A.md']);
  });

  it('a folder replaced by another of the same name: the new one is read and watched', async () => {
    put('D/A.md', 'a');
    const w = await start();
    fs.rmSync(abs('D'), { recursive: true });
    put('D/B.md', 'b');
    await w.until('added:D/B.md');
    expect((await w.settle()).sort()).toEqual(['added:D/B.md', 'removed:D/A.md']);
    w.reported.length = 0;
    put('D/B.md', 'b, edited');
    await w.until('changed:D/B.md');
    expect(await w.settle()).toEqual(['changed:D/B.md']);
  });

  it.skipIf(process.getuid?.() === 0)('says which folder it cannot watch and goes on with the others', async () => {
    put('Locked/A.md', 'a');
    fs.chmodSync(abs('Locked'), 0o000);
    try {
      const w = await start();
      expect(w.errors.map((e) => e.message).join('\n')).toMatch(/Could not watch the folder "Locked" in .* for changes .*full scan/);
      put('Open/B.md', 'b');
      await w.until('added:Open/B.md');
    } finally {
      fs.chmodSync(abs('Locked'), 0o755);
    }
  });
});
