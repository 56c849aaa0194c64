import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeEmptyDirs } from './removeEmptyDirs.js';
import { removeTempFiles } from './atomicWrites.js';
import { useTempDir } from '../../test/support/testDir.js';

const root = useTempDir();
const mk = (rel: string) => fs.mkdirSync(path.join(root(), rel), { recursive: true });
const put = (rel: string) => fs.writeFileSync(path.join(root(), rel), 'x');

describe('removeEmptyDirs', () => {
  it('removes the folder and each parent left empty, stopping at one that holds something', async () => {
    mk('A/B/C');
    put('A/keep.md');
    expect(await removeEmptyDirs(root(), 'A/B/C')).toEqual(['A/B/C', 'A/B']);
    expect(fs.readdirSync(path.join(root(), 'A'))).toEqual(['keep.md']);
  });

  it('treats OS litter as empty, never removes the root, and skips a folder already gone', async () => {
    mk('X/Y');
    put('X/Y/.DS_Store');
    put('X/Thumbs.db');
    expect(await removeEmptyDirs(root(), 'X/Y/Z')).toEqual(['X/Y', 'X']);
    expect(fs.existsSync(root())).toBe(true);
  });

  it('stops at the first folder the caller may not remove, empty or not', async () => {
    mk('Work/Note.assets');
    const isAssets = (d: string) => d.endsWith('.assets');
    expect(await removeEmptyDirs(root(), 'Work/Note.assets', isAssets)).toEqual(['Work/Note.assets']);
    // Already gone: the walk goes up, and stops at the folder it may not remove.
    expect(await removeEmptyDirs(root(), 'Work/Gone.assets', isAssets)).toEqual([]);
    expect(fs.existsSync(path.join(root(), 'Work'))).toBe(true);
  });

  it('keeps a folder holding a hidden file that is not litter, and never touches .spacesync', async () => {
    mk('A');
    put('A/.notes');
    mk('.spacesync/logs');
    expect(await removeEmptyDirs(root(), 'A')).toEqual([]);
    expect(await removeEmptyDirs(root(), '.spacesync/logs')).toEqual([]);
    expect(fs.existsSync(path.join(root(), '.spacesync/logs'))).toBe(true);
  });
});

describe('removeTempFiles', () => {
  it("removes only the daemon's temp files, outside dot-folders", async () => {
    mk('P');
    mk('.git');
    put('P/.A.md.spacesync-0a1b2c3d4e5f.tmp');
    put('.B.md.spacesync-ff.tmp');
    put('P/.A.md.swp');
    put('P/A.md');
    put('.git/.C.md.spacesync-aa.tmp');
    expect(await removeTempFiles(root())).toEqual(['.B.md.spacesync-ff.tmp', 'P/.A.md.spacesync-0a1b2c3d4e5f.tmp']);
    expect(fs.readdirSync(path.join(root(), 'P')).sort()).toEqual(['.A.md.swp', 'A.md']);
    expect(fs.readdirSync(path.join(root(), '.git'))).toEqual(['.C.md.spacesync-aa.tmp']);
  });
});
