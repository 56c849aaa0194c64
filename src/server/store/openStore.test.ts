import { readdirSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from './openStore.js';
import { loadFixture } from '../fixture/loadFixture.js';
import { generateSpace } from '../fixture/generateSpace.js';

/** Files SQLite opened for temporary databases (removed from the folder, still open) in this process. */
const temporaryFiles = () =>
  readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => /etilqs_/.test(target));

describe('openStore without a file', () => {
  it.runIf(process.platform === 'linux')('pages a space larger than its cache out to a temporary file, not into the process memory', () => {
    const before = temporaryFiles().length;
    const db = openStore();
    try {
      db.pragma('cache_size = -1024');
      loadFixture(db, generateSpace({ documents: 1000, blocksPerDocument: 10, seed: 3 }), Date.parse('2026-09-05T10:00:00Z'));
      expect(temporaryFiles().length).toBeGreaterThan(before);
      expect((db.prepare('SELECT COUNT(*) AS n FROM blocks').get() as { n: number }).n).toBe(11_000);
    } finally {
      db.close();
    }
    expect(temporaryFiles().length).toBe(before);
  });
});

describe('the schema', () => {
  it('finds the next document seq by an index, not by scanning every document', () => {
    const db = openStore();
    try {
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM documents').all() as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join('; ')).toMatch(/USING (COVERING )?INDEX documents_seq/);
    } finally {
      db.close();
    }
  });
});
