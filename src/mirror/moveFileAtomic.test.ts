import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../errors.js';
import { hashText } from './hashText.js';
import { moveFileAtomic } from './moveFileAtomic.js';
import { OwnWrites } from './OwnWrites.js';
import { useTempDir } from '../../test/support/testDir.js';

const root = useTempDir();
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
