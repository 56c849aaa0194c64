// One plan for the cycle: the files the next cycle writes are exactly the files the plan named,
// whatever kind of content they hold (documents, assets, scenes, task files).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtureFile } from '../../src/server/index.js';
import { planCycle, syncOnce, type CyclePlan } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

let space: Space;
let root: string;

beforeEach(async () => {
  space = await startSpace(demo);
  root = makeRoot();
});
afterEach(async () => {
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function plan(): Promise<CyclePlan> {
  const session = await openSession(root, space, { readOnly: true });
  try {
    return await planCycle(session.ctx);
  } finally {
    session.close();
  }
}

/** Files a cycle writes: new ones, and those whose bytes or inode changed. */
async function cycleWrites(): Promise<string[]> {
  const before = readTree(root);
  const session = await openSession(root, space);
  try {
    await syncOnce(session.ctx, { downloads: 'wait' });
  } finally {
    session.close();
  }
  const after = readTree(root);
  return [...after]
    .filter(([p, v]) => v.text !== null || fs.statSync(path.join(root, p)).isFile())
    .filter(([p, v]) => {
      const b = before.get(p);
      return !b || b.ino !== v.ino || b.mtimeMs !== v.mtimeMs;
    })
    .map(([p]) => p)
    .filter((p) => fs.statSync(path.join(root, p)).isFile())
    .sort();
}

describe('the plan names every file the cycle writes', () => {
  it('a first pull of the demo space: documents, assets, scenes and task files', async () => {
    const p = await plan();
    expect(fs.readdirSync(root)).toEqual([]);
    const written = await cycleWrites();
    expect(p.files.write).toEqual(written);
  });
});
