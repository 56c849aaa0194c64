import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { createIgnore } from './createIgnore.js';
import { hashText, readMirrorFile } from './readMirrorFile.js';
import { OwnWrites } from './OwnWrites.js';
import { removeTempFiles, writeFileAtomic, writeFileIfUnchanged, moveFileAtomic } from './atomicWrites.js';
import { scanMirror } from './scanMirror.js';
import { useTempDir } from '../../test/support/testDir.js';

const root = useTempDir();

describe('writeFileIfUnchanged', () => {
  it("writes over the bytes it was told of, and leaves a file that changed since (an editor's save) as it is", async () => {
    const file = path.join(root(), 'A.md');
    fs.writeFileSync(file, 'as read');
    const own = new OwnWrites();
    const w = await writeFileIfUnchanged(root(), 'A.md', 'pulled', hashText(Buffer.from('as read')), { ownWrites: own });
    expect(w).toEqual({ written: true, hash: hashText(Buffer.from('pulled')) });
    fs.writeFileSync(file, 'saved by the user');
    const stale = await writeFileIfUnchanged(root(), 'A.md', 'pulled again', hashText(Buffer.from('pulled')), { ownWrites: own });
    expect(stale).toEqual({ written: false, now: hashText(Buffer.from('saved by the user')) });
    expect(fs.readFileSync(file, 'utf8')).toBe('saved by the user');
    expect(fs.readdirSync(root())).toEqual(['A.md']);
    expect(own.consume('A.md', hashText(Buffer.from('pulled again')))).toBe(false);
  });

  it('never renames over a save that lands while the write is under way, whichever turn of the event loop it lands on', async () => {
    // The user's save lands k turns of the event loop after the new text is complete in its temp
    // file. Whether it lands before the check (the write is refused) or after the rename (the save
    // wins), the file ends with the save; only a save between the check and the rename could be
    // lost, and the two run without a turn of the event loop between them.
    const file = path.join(root(), 'A.md');
    for (let k = 0; k < 40; k++) {
      fs.writeFileSync(file, 'as read');
      let turns = 0;
      let done = false;
      const saved = new Promise<void>((resolve) => {
        const tick = () => {
          const temp = fs.readdirSync(root()).find((n) => n !== 'A.md' && fs.statSync(path.join(root(), n)).size === 'pulled'.length);
          const written = fs.readFileSync(file, 'utf8') === 'pulled';
          if (!done && temp === undefined && !written) return void setImmediate(tick);
          if (turns++ < k && !done && !written) return void setImmediate(tick);
          fs.writeFileSync(`${file}.save`, `saved at turn ${k}`);
          fs.renameSync(`${file}.save`, file); // an editor's save: write aside, rename over
          resolve();
        };
        setImmediate(tick);
      });
      await writeFileIfUnchanged(root(), 'A.md', 'pulled', hashText(Buffer.from('as read')));
      done = true;
      await saved;
      expect(fs.readFileSync(file, 'utf8'), `save at turn ${k}`).toBe(`saved at turn ${k}`);
    }
  });

  it('with null, writes only where there is no file', async () => {
    expect(await writeFileIfUnchanged(root(), 'New.md', 'first', null)).toMatchObject({ written: true });
    expect(await writeFileIfUnchanged(root(), 'New.md', 'second', null)).toEqual({ written: false, now: hashText(Buffer.from('first')) });
    expect(fs.readFileSync(path.join(root(), 'New.md'), 'utf8')).toBe('first');
  });
});

describe('writeFileAtomic', () => {
  it('creates parent folders, writes the exact text and returns its hash', async () => {
    const text = '---\nid: abc\n---\r\n# Título\r\nno final newline';
    const { hash } = await writeFileAtomic(root(), 'Projects/Sub/Roadmap.md', text);
    expect(fs.readFileSync(path.join(root(), 'Projects/Sub/Roadmap.md'), 'utf8')).toBe(text);
    expect(hash).toBe(hashText(Buffer.from(text)));
    expect(await readMirrorFile(root(), 'Projects/Sub/Roadmap.md')).toEqual({ text, hash });
  });

  it('replaces a file, keeps its permissions, and leaves no temp file behind', async () => {
    const file = path.join(root(), 'A.md');
    fs.writeFileSync(file, 'old');
    fs.chmodSync(file, 0o600);
    await writeFileAtomic(root(), 'A.md', 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(root())).toEqual(['A.md']);
  });

  it('does not recreate a mirror root that has gone (an unmounted disk)', async () => {
    const gone = path.join(root(), 'gone');
    const err = await writeFileAtomic(gone, 'Unsorted/A.md', 'x').catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'mirror_io')).toBe(true);
    expect((err as { details?: { reason?: string } }).details?.reason).toBe('root_missing');
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('notes the write for the watcher before it lands', async () => {
    const own = new OwnWrites();
    const { hash } = await writeFileAtomic(root(), 'A.md', 'x', { ownWrites: own });
    expect(own.consume('A.md', hash)).toBe(true);
  });

  it('a folder swapped for a symbolic link while the new text was written out: not written through it, the temp file removed (chaos seed 1170009)', async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(root()), 'outside-'));
    fs.mkdirSync(path.join(root(), 'Alpha'));
    fs.writeFileSync(path.join(root(), 'Alpha', 'A.md'), 'as it was');
    // The swap lands at the last moment before the rename (the watcher's note is taken then).
    const own = new OwnWrites({
      beforeWrite: () => {
        fs.renameSync(path.join(root(), 'Alpha'), path.join(outside, 'Alpha'));
        fs.symlinkSync(path.join(outside, 'Alpha'), path.join(root(), 'Alpha'));
      },
    });
    const err = await writeFileAtomic(root(), 'Alpha/A.md', 'pulled', { ownWrites: own }).catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'mirror_symlink')).toBe(true);
    expect(fs.readdirSync(path.join(outside, 'Alpha'))).toEqual(['A.md']);
    expect(fs.readFileSync(path.join(outside, 'Alpha', 'A.md'), 'utf8')).toBe('as it was');
    fs.rmSync(outside, { recursive: true });
  });

  it('refuses a path that leaves the root, and reports a failed write with mirror_io, cleaning its temp file', async () => {
    await expect(writeFileAtomic(root(), '../outside.md', 'x')).rejects.toSatisfy((e) => isSpacesyncError(e, 'mirror_io'));
    await expect(writeFileAtomic(root(), 'a/./b.md', 'x')).rejects.toSatisfy((e) => isSpacesyncError(e, 'mirror_io'));
    expect(fs.existsSync(path.join(root(), '..', 'outside.md'))).toBe(false);
    fs.mkdirSync(path.join(root(), 'Dir.md'));
    const err = await writeFileAtomic(root(), 'Dir.md', 'x').catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'mirror_io')).toBe(true);
    expect((err as Error).message).toMatch(/Could not write "Dir\.md"/);
    expect(fs.readdirSync(root())).toEqual(['Dir.md']);
  });

  it('never shows a torn file to a reader, even when the writer is killed with -9', async () => {
    const a = `A${'a'.repeat(3_000_000)}\n`;
    const b = `B${'b'.repeat(2_000_000)}\n`;
    fs.writeFileSync(path.join(root(), 'Big.md'), a);
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(path.resolve('src/mirror/atomicWrites.ts'))};
      const a = 'A' + 'a'.repeat(3_000_000) + '\\n', b = 'B' + 'b'.repeat(2_000_000) + '\\n';
      for (let i = 0; ; i++) {
        await writeFileAtomic(${JSON.stringify(root())}, 'Big.md', i % 2 ? a : b);
        if (i === 1) process.stdout.write('writing\\n');
      }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => resolve());
      child.on('exit', (code) => reject(new Error(`writer exited with ${code}`)));
    });
    const seen = new Set<string>();
    // Read until both versions were seen (the writer alternates), checking every read.
    for (let i = 0; i < 5000 && seen.size < 2; i++) {
      const text = fs.readFileSync(path.join(root(), 'Big.md'), 'utf8');
      expect(text === a || text === b).toBe(true);
      seen.add(text[0]!);
      await new Promise((r) => setImmediate(r));
    }
    expect([...seen].sort()).toEqual(['A', 'B']);
    child.kill('SIGKILL');
    await exited;
    const final = fs.readFileSync(path.join(root(), 'Big.md'), 'utf8');
    expect(final === a || final === b).toBe(true);
    // A temp file the kill left behind is never a document, and is cleaned at start.
    expect((await scanMirror(root(), createIgnore())).files.map((f) => f.relPath)).toEqual(['Big.md']);
    await removeTempFiles(root());
    expect(fs.readdirSync(root())).toEqual(['Big.md']);
  });
});

describe('readMirrorFile', () => {
  it('returns null for a missing file and keeps a byte-order mark and CRLF', async () => {
    expect(await readMirrorFile(root(), 'Nope.md')).toBeNull();
    expect(await readMirrorFile(root(), 'Nope/Deeper.md')).toBeNull();
    const bytes = Buffer.from('\uFEFFa\r\nb', 'utf8');
    fs.writeFileSync(path.join(root(), 'B.md'), bytes);
    expect(await readMirrorFile(root(), 'B.md')).toEqual({ text: '\uFEFFa\r\nb', hash: hashText(bytes) });
  });
});

const put = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root(), rel)), { recursive: true });
  fs.writeFileSync(path.join(root(), rel), text);
};
const read = (rel: string) => fs.readFileSync(path.join(root(), rel), 'utf8');
const exists = (rel: string) => fs.existsSync(path.join(root(), rel));

describe('moveFileAtomic', () => {
  it('moves into a new folder', async () => {
    put('Unsorted/A.md', 'a');
    expect(await moveFileAtomic(root(), 'Unsorted/A.md', 'Projects/Q1/A.md')).toEqual({ ok: true, outcome: 'moved', hash: hashText('a') });
    expect(read('Projects/Q1/A.md')).toBe('a');
    expect(exists('Unsorted/A.md')).toBe(false);
  });

  it('refuses to overwrite a different file and leaves both as they were', async () => {
    put('A.md', 'mine');
    put('B.md', 'theirs');
    const r = await moveFileAtomic(root(), 'A.md', 'B.md');
    expect(r).toMatchObject({ ok: false, reason: 'target_exists' });
    expect(r.ok ? '' : r.message).toContain('"B.md"');
    expect([read('A.md'), read('B.md')]).toEqual(['mine', 'theirs']);
  });

  it('only removes the source when the target already holds the same bytes', async () => {
    put('A.md', 'same');
    put('B.md', 'same');
    expect(await moveFileAtomic(root(), 'A.md', 'B.md')).toEqual({ ok: true, outcome: 'already_there' });
    expect(exists('A.md')).toBe(false);
    expect(read('B.md')).toBe('same');
  });

  it('does not recreate a mirror root that has gone', async () => {
    const gone = path.join(root(), 'gone');
    await expect(moveFileAtomic(gone, 'A.md', 'B/A.md')).rejects.toThrow(/does not exist/);
    expect(exists('gone')).toBe(false);
  });

  it('reports a missing source as data', async () => {
    expect(await moveFileAtomic(root(), 'Gone.md', 'B.md')).toMatchObject({ ok: false, reason: 'source_missing' });
  });

  it('renames by case only', async () => {
    put('roadmap.md', 'r');
    expect(await moveFileAtomic(root(), 'roadmap.md', 'Roadmap.md')).toEqual({ ok: true, outcome: 'moved', hash: hashText('r') });
    expect(fs.readdirSync(root())).toEqual(['Roadmap.md']);
  });

  it('a folder swapped for a symbolic link since it looked: nothing moved through it (chaos seed 1170009)', async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(root()), 'outside-'));
    put('Alpha/A.md', 'a');
    const own = new OwnWrites({
      beforeWrite: () => {
        if (fs.lstatSync(path.join(root(), 'Alpha')).isSymbolicLink()) return;
        fs.renameSync(path.join(root(), 'Alpha'), path.join(outside, 'Alpha'));
        fs.symlinkSync(path.join(outside, 'Alpha'), path.join(root(), 'Alpha'));
      },
    });
    const err = await moveFileAtomic(root(), 'Alpha/A.md', 'Beta/A.md', { ownWrites: own }).catch((e: unknown) => e);
    expect(isSpacesyncError(err, 'mirror_symlink')).toBe(true);
    expect(fs.readdirSync(path.join(outside, 'Alpha'))).toEqual(['A.md']);
    expect(exists('Beta/A.md')).toBe(false);
    fs.rmSync(outside, { recursive: true });
  });

  it('notes the removal and the arrival for the watcher', async () => {
    put('A.md', 'a');
    const own = new OwnWrites();
    await moveFileAtomic(root(), 'A.md', 'B.md', { ownWrites: own });
    expect(own.consume('A.md', null)).toBe(true);
    expect(own.consume('B.md', hashText('a'))).toBe(true);
  });
});
