// The mirror as a vault (issue 18's "done when"): a mirror of the demo space shows every image from
// its own files and follows every link with the service gone; the same mirror, copied without its
// journal and synced into an empty space, recreates the documents with their images, whiteboards
// and working links, and a second cycle sends nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtureFile, type SpaceFixture } from '../../src/server/index.js';
import { syncOnce } from '../../src/sync/index.js';
import { makeRoot, openSession, readTree, startSpace, type Space } from '../pull/harness.js';

const demo = readFixtureFile('fixtures/spaces/demo.json');

interface FixtureBlock {
  id?: string;
  type?: string;
  url?: string;
  markdown?: string;
  content?: FixtureBlock[];
  whiteboard?: { elements: Array<{ id: string; text?: string }> };
}
const fixtureBlocks = (list: readonly FixtureBlock[] = []): FixtureBlock[] => list.flatMap((b) => [b, ...fixtureBlocks(b.content)]);
const demoDocs = (demo.documents ?? []) as Array<{ id: string; title: string; location?: string; dailyNoteDate?: string; content?: FixtureBlock[] }>;
const assetBytes = new Map(((demo as { assets?: Array<{ id: string; base64?: string }> }).assets ?? []).map((a) => [a.id, a.base64]));
/** The bytes of a fixture block's asset; undefined when the demo holds none (the service cannot serve it). */
const bytesOf = (b: FixtureBlock): Buffer | undefined => {
  const b64 = b.url?.startsWith('asset:') ? assetBytes.get(b.url.slice('asset:'.length)) : undefined;
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64');
};
const MEDIA = new Set(['image', 'video', 'file', 'drawing']);

/** Every link of the mirror's Markdown files (the journal's folder aside): the file, the whole link, its destination as written. */
function linksOf(root: string): Array<{ file: string; link: string; dest: string; image: boolean }> {
  const out: Array<{ file: string; link: string; dest: string; image: boolean }> = [];
  for (const [file, v] of readTree(root)) {
    if (v.text === null || !file.endsWith('.md')) continue;
    for (const m of v.text.matchAll(/(!?)\[[^\]\n]*\]\((<[^<>\n]*>|[^\s()]+)\)/g)) {
      const raw = m[2]!;
      out.push({ file, link: m[0], dest: raw.startsWith('<') ? raw.slice(1, -1) : raw, image: m[1] === '!' });
    }
  }
  return out;
}

let space: Space;
let mirror: string;

beforeAll(async () => {
  space = await startSpace(demo);
  mirror = makeRoot();
  const session = await openSession(mirror, space);
  try {
    expect((await syncOnce(session.ctx)).exitCode).toBe(0);
  } finally {
    session.close();
  }
  // The network is off from here on: nothing of the mirror may need the service.
  await space.close();
}, 60_000);
afterAll(() => fs.rmSync(mirror, { recursive: true, force: true }));

describe('a mirror of the demo space', () => {
  it('links no file of the service: every image, drawing and attachment is a file beside its document', () => {
    const origin = new URL(space.server.baseUrl).origin;
    const remote = linksOf(mirror).filter((l) => l.dest.startsWith(origin));
    // The demo space holds the bytes of every asset it links, so every link is a file here, with no exception.
    const unservable = demoDocs.flatMap((d) => fixtureBlocks(d.content)).filter((b) => MEDIA.has(b.type ?? '') && bytesOf(b) === undefined);
    expect(unservable.map((b) => b.type)).toEqual([]);
    expect(remote.map((l) => l.link)).toEqual([]);
  });

  it('follows every relative link to a file that is there, and each asset holds the bytes of the space', () => {
    const relative = linksOf(mirror).filter((l) => !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(l.dest));
    expect(relative.length).toBeGreaterThan(10);
    for (const l of relative) {
      const target = path.join(mirror, path.dirname(l.file), decodeURIComponent(l.dest.split('#')[0]!));
      expect(fs.existsSync(target), `${l.file}: ${l.link}`).toBe(true);
    }
    const assets = relative.filter((l) => l.dest.includes('.assets/') && !l.dest.endsWith('.excalidraw'));
    const expected = demoDocs.flatMap((d) => fixtureBlocks(d.content)).filter((b) => MEDIA.has(b.type ?? '') && bytesOf(b) !== undefined);
    expect(assets).toHaveLength(expected.length);
    const onDisk = assets.map((l) => fs.readFileSync(path.join(mirror, path.dirname(l.file), decodeURIComponent(l.dest))).toString('base64')).sort();
    expect(onDisk).toEqual(expected.map((b) => bytesOf(b)!.toString('base64')).sort());
  });
});

describe('the mirror restored into an empty space', () => {
  const empty: SpaceFixture = { version: 1, space: { id: 'S-RESTORED', name: 'Restored', timezone: 'UTC', userId: 'U1' }, folders: [], documents: [] };
  let restored: Space;
  let copy: string;
  let result: Awaited<ReturnType<typeof syncOnce>>;
  let second: Awaited<ReturnType<typeof syncOnce>>;
  let written: string[];
  let docs: Array<{ id: string; title: string }>;

  beforeAll(async () => {
    restored = await startSpace(empty);
    copy = makeRoot();
    // A backup as a user keeps it: the files, not the journal.
    fs.cpSync(mirror, copy, { recursive: true, filter: (src) => path.basename(src) !== '.spacesync' });
    const session = await openSession(copy, restored);
    try {
      result = await syncOnce(session.ctx);
      await restored.clearRequests();
      second = await syncOnce(session.ctx);
      written = (await restored.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    } finally {
      session.close();
    }
    docs = (await restored.call('GET', '/documents')).items;
  }, 60_000);
  afterAll(async () => {
    await restored.close();
    fs.rmSync(copy, { recursive: true, force: true });
  });

  it('recreates every document outside the trash, and a second cycle sends nothing', () => {
    // What the space cannot take from files is said, and the runs end with 4 (not in step): the
    // trashed documents' files, and a collection (output-only).
    expect(result.push.plan.problems.map((p) => p.path)).toEqual(['Trash/Old draft.md', 'Trash/Q3 goals (copy).md', 'Work/Projects/Website relaunch.md']);
    expect(result.exitCode).toBe(4);
    expect(second.exitCode).toBe(4);
    expect(written).toEqual([]);
    const kept = demoDocs.filter((d) => d.location !== 'trash');
    expect(docs).toHaveLength(kept.length);
  });

  it('links each document to the recreated one the original linked', async () => {
    const titleOf = new Map(demoDocs.map((d) => [d.id, d.title]));
    const newTitle = new Map(docs.map((d) => [d.id, d.title]));
    const originals = demoDocs
      .flatMap((d) => fixtureBlocks(d.content))
      .flatMap((b) => [...(b.markdown ?? '').matchAll(/\]\(block:\/\/([^)]+)\)/g)].map((m) => m[1]!));
    expect(originals.length).toBeGreaterThan(3);
    const found: string[] = [];
    for (const d of docs) {
      const root = (await restored.call('GET', '/blocks', undefined, { id: d.id })) as FixtureBlock;
      for (const b of fixtureBlocks(root.content))
        for (const m of (b.markdown ?? '').matchAll(/\]\(block:\/\/([^)]+)\)/g)) found.push(newTitle.get(m[1]!) ?? `unknown ${m[1]}`);
    }
    expect(found.sort()).toEqual(
      originals
        .filter((id) => titleOf.has(id))
        .map((id) => titleOf.get(id)!)
        .sort(),
    );
  });

  it('uploads each image and attachment with its bytes, and recreates each whiteboard with its elements', async () => {
    const blocks: FixtureBlock[] = [];
    for (const d of docs) blocks.push(...fixtureBlocks(((await restored.call('GET', '/blocks', undefined, { id: d.id })) as FixtureBlock).content));
    const uploaded: string[] = [];
    const here = new URL(restored.server.baseUrl).origin;
    const media = blocks.filter((x) => MEDIA.has(x.type ?? ''));
    const urlOf = (b: FixtureBlock) => /\]\((\S+?)\)/.exec(b.markdown ?? '')![1]!;
    // Every asset, the video included, was downloaded and went back as an upload: none links the old space.
    expect(media.filter((b) => !urlOf(b).startsWith(here)).map((b) => `${b.type} ${urlOf(b)}`)).toEqual([]);
    for (const b of media.filter((x) => urlOf(x).startsWith(here))) {
      const r = await fetch(urlOf(b));
      expect(r.status, `${b.type} ${b.id}`).toBe(200);
      uploaded.push(Buffer.from(await r.arrayBuffer()).toString('base64'));
    }
    const all = demoDocs.filter((d) => d.location !== 'trash').flatMap((d) => fixtureBlocks(d.content));
    expect(uploaded.sort()).toEqual(
      all
        .filter((b) => MEDIA.has(b.type ?? '') && bytesOf(b) !== undefined)
        .map((b) => bytesOf(b)!.toString('base64'))
        .sort(),
    );
    const boards = blocks.filter((b) => b.type === 'whiteboard');
    const texts: string[] = [];
    for (const b of boards)
      texts.push(...((await restored.call('GET', `/whiteboards/${b.id}/elements`)).elements as Array<{ text?: string }>).map((e) => e.text ?? ''));
    const original = all.filter((b) => b.type === 'whiteboard').flatMap((b) => (b.whiteboard?.elements ?? []).map((e) => e.text ?? ''));
    expect(boards.length).toBe(all.filter((b) => b.type === 'whiteboard').length);
    expect(texts.sort()).toEqual(original.sort());
  });
});
