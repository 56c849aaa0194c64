// Test helper: a fresh real temp folder per test (atomic renames, fsync and watchers need a disk).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Registers hooks and returns a getter for the current test's folder. */
export function useTempDir(prefix = 'spacesync-mirror-'): () => string {
  let dir = '';
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
