import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSpacesyncError } from '../../errors.js';
import { moveDirectory } from './moveDirectory.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'spacesync-movedir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('moveDirectory', () => {
  it('moves a folder with what is inside it', async () => {
    await mkdir(path.join(root, 'Alpha'));
    await writeFile(path.join(root, 'Alpha', 'Note.md'), 'x');
    await moveDirectory(root, 'Alpha', 'Beta/Gamma/Alpha');
    expect(await readdir(path.join(root, 'Beta', 'Gamma', 'Alpha'))).toEqual(['Note.md']);
  });

  it('a folder moved away here meanwhile: mirror_changed (the daemon goes on; the next cycle looks again)', async () => {
    const e = await moveDirectory(root, 'Alpha', 'Beta/Alpha').catch((x: unknown) => x);
    expect(isSpacesyncError(e, 'mirror_changed')).toBe(true);
    expect((e as Error).message).toMatch(/"Alpha" was not moved to "Beta\/Alpha": .*moved or removed here meanwhile.*next cycle/);
  });

  it('the mirror folder itself gone: mirror_io (the daemon stops)', async () => {
    await rm(root, { recursive: true });
    const e = await moveDirectory(root, 'Alpha', 'Beta/Alpha').catch((x: unknown) => x);
    expect(isSpacesyncError(e, 'mirror_io')).toBe(true);
  });
});
