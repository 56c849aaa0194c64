// An image uploaded from the mirror keeps the alt text its line gives (issue 32): `POST /upload`
// cannot carry it, so it follows as the block's markdown by `PUT /blocks`; the space shows it, and
// a later pull (the document changed in the space) gives the line back as it is. The same holds for
// a replaced asset, for an upload an earlier run sent whose answer was lost, and for an alt text
// the space refused at first (sent by the next cycle).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpaceFixture } from '../../src/server/index.js';
import { syncOnce, type SyncSession } from '../../src/sync/index.js';
import { makeRoot, openSession, startSpace, type Space } from '../pull/harness.js';
import { armFault } from '../client/admin.js';

const fixture: SpaceFixture = {
  version: 1,
  space: { id: 'S-ALT', name: 'Alt', timezone: 'UTC', userId: 'U1' },
  documents: [
    {
      id: 'D-GROC',
      title: 'Groceries',
      createdAt: '2026-09-01T08:00:00Z',
      content: [
        { id: 'G1', markdown: '- [ ] Oat milk' },
        { id: 'G2', markdown: '- [ ] Bread' },
      ],
    },
  ],
};

const DOC = 'Unsorted/Groceries.md';
const IMG = 'Unsorted/Groceries.assets/red.png';
const LINE = '![A red square](Groceries.assets/red.png)';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let space: Space;
let root: string;
let session: SyncSession;
const abs = (p: string) => path.join(root, p);
const read = (p: string) => fs.readFileSync(abs(p), 'utf8');
const put = (p: string, bytes: Buffer | string) => {
  fs.mkdirSync(path.dirname(abs(p)), { recursive: true });
  fs.writeFileSync(abs(p), bytes);
};
const writes = async () => (await space.requests()).map((r) => `${r.method} ${r.path}`).filter((r) => !r.startsWith('GET'));
const cycle = async (exit = 0) => {
  const r = await syncOnce(session.ctx);
  expect(r.exitCode).toBe(exit);
  return r;
};
const images = async () =>
  (
    (await space.call('GET', '/blocks', undefined, { id: 'D-GROC' })) as { content: Array<{ id: string; type: string; markdown: string; altText?: string }> }
  ).content.filter((b) => b.type === 'image');
/** The image's line, with its alt text, is in the space and in the file, and stays after the space changes another block. */
async function expectAltKept(text: string): Promise<void> {
  const [image, ...more] = await images();
  expect(more).toEqual([]);
  expect(image).toMatchObject({ altText: 'A red square', markdown: expect.stringMatching(/^!\[A red square\]\(http/) });
  expect(read(DOC)).toBe(text);
  await space.call('PUT', '/blocks', { blocks: [{ id: 'G2', markdown: '- [ ] Rye bread' }] });
  await space.clearRequests();
  await cycle();
  await cycle();
  expect(await writes()).toEqual([]);
  expect(read(DOC)).toBe(text.replace('Bread', 'Rye bread'));
  expect((await images())[0]).toMatchObject({ id: image!.id, altText: 'A red square' });
}

beforeEach(async () => {
  space = await startSpace(fixture);
  root = makeRoot();
  session = await openSession(root, space);
  await cycle();
  put(IMG, PNG);
  fs.writeFileSync(abs(DOC), read(DOC).replace('- [ ] Oat milk\n', `- [ ] Oat milk\n\n${LINE}\n`));
  await space.clearRequests();
});
afterEach(async () => {
  session.close();
  await space.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('an uploaded image', () => {
  it("goes up with its line's alt text, and a later pull leaves the line as it is", async () => {
    const text = read(DOC);
    const r = await cycle();
    expect(r.media?.uploaded).toEqual([IMG]);
    expect(await writes()).toEqual(['POST /upload', 'PUT /blocks']);
    await expectAltKept(text);
  });

  it('with no alt text of its own sends none', async () => {
    fs.writeFileSync(abs(DOC), read(DOC).replace(LINE, '![Image](Groceries.assets/red.png)'));
    await cycle();
    expect(await writes()).toEqual(['POST /upload']);
  });

  it('refused its alt text at first gets it from the next cycle, the line untouched', async () => {
    const text = read(DOC);
    await armFault(space.server, { kind: '500', count: 5, match: { method: 'PUT', path: '^/blocks$' } });
    await cycle();
    expect((await images())[0]).not.toHaveProperty('altText');
    expect(read(DOC)).toBe(text);
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual(['PUT /blocks']);
    await expectAltKept(text);
  });

  it('whose upload an earlier run sent without its answer is adopted with its alt text', async () => {
    const text = read(DOC);
    await armFault(space.server, { kind: 'reset-after-apply', match: { method: 'POST', path: '^/upload$' } });
    await cycle();
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual(['PUT /blocks']);
    await expectAltKept(text);
  });

  it('replaced by new bytes keeps its alt text on the new block', async () => {
    await cycle();
    const old = (await images())[0]!.id;
    put(IMG, Buffer.concat([PNG, Buffer.from('more')]));
    const text = read(DOC);
    await space.clearRequests();
    await cycle();
    expect(await writes()).toEqual(['POST /upload', 'DELETE /blocks', 'PUT /blocks']);
    expect((await images())[0]!.id).not.toBe(old);
    await expectAltKept(text);
  });
});
