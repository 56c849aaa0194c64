// The store on disk: a space kept in a SQLite file survives restarts and is not re-seeded; a
// file written by a newer schema is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { fixture, ids } from './spaceFixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spacesync-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;

describe('--data FILE', () => {
  it('keeps the space across restarts, in WAL mode, without seeding it again', async () => {
    const file = path.join(dir, 'space.db');
    const first = await startServer({ dataFile: file, seed: fixture, limits: 'off', linkId: 'persist-link' });
    const created = await json(`${first.baseUrl}/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documents: [{ title: 'Survivor' }] }),
    });
    await json(`${first.baseUrl}/documents`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documentIds: [ids.roadmap] }),
    });
    await first.close();

    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();

    const second = await startServer({ dataFile: file, seed: { version: 1, space: { id: 'OTHER', name: 'Other' } }, limits: 'off', linkId: 'persist-link' });
    try {
      const docs = await json(`${second.baseUrl}/documents`);
      expect(docs.items.map((d: any) => d.id)).toContain(created.items[0].id);
      const trash = await json(`${second.baseUrl}/documents?location=trash`);
      expect(trash.items.map((d: any) => d.id)).toContain(ids.roadmap);
      expect((await json(`${second.baseUrl}/connection`)).space.id).toBe('SPACE-1');
    } finally {
      await second.close();
    }
  });

  it('a media URL signed before a restart is still the same asset when sent back after it; one another space signed is not', async () => {
    const file = path.join(dir, 'media.db');
    const post = (base: string, doc: string, markdown: string) =>
      json(`${base}/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ markdown, position: { position: 'end', pageId: doc } }),
      });
    const upload = async (base: string, doc: string) =>
      json(`${base}/upload?position=end&pageId=${doc}`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: Buffer.from('png bytes') });
    const first = await startServer({ dataFile: file, seed: fixture, limits: 'off', linkId: 'media-link' });
    const { assetUrl } = await upload(first.baseUrl, ids.roadmap);
    await first.close();
    const second = await startServer({ dataFile: file, limits: 'off', linkId: 'media-link' });
    const other = await startServer({ seed: fixture, limits: 'off' });
    try {
      const again = await post(second.baseUrl, ids.roadmap, `![Image](${assetUrl})`);
      const read = again.items[0].markdown as string;
      expect(read).not.toBe(`![Image](${assetUrl})`);
      const url = /\((.*)\)/.exec(read)![1]!;
      expect(Buffer.from(await (await fetch(url)).arrayBuffer()).toString()).toBe('png bytes');
      // Another space (another server) keeps the URL as given: it is not an asset of its own.
      expect((await post(other.baseUrl, ids.roadmap, `![Image](${assetUrl})`)).items[0].markdown).toBe(`![Image](${assetUrl})`);
    } finally {
      await second.close();
      await other.close();
    }
  });

  it('a new time zone given at start replaces the stored one', async () => {
    const file = path.join(dir, 'tz.db');
    await (await startServer({ dataFile: file, seed: fixture })).close();
    const s = await startServer({ dataFile: file, timezone: 'America/New_York' });
    try {
      expect((await json(`${s.baseUrl}/connection`)).space.timezone).toBe('America/New_York');
    } finally {
      await s.close();
    }
  });

  it('a file of schema 1 (assets whole in one column) is migrated: its files are served as they were', async () => {
    const file = path.join(dir, 'schema1.db');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 5);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) % 253;
    const seed = { ...fixture, assets: [{ id: 'A-OLD', contentType: 'image/png', fileName: 'old.png', base64: bytes.toString('base64') }] };
    const first = await startServer({ dataFile: file, seed, limits: 'off', linkId: 'schema1-link' });
    await first.close();
    // Back to schema 1: the asset's bytes in assets.bytes, no chunks, no index of documents by seq.
    const db = new Database(file);
    db.prepare('UPDATE assets SET bytes = ? WHERE id = ?').run(bytes, 'A-OLD');
    db.exec('DROP TABLE asset_chunks; ALTER TABLE assets DROP COLUMN size; DROP INDEX documents_seq;');
    db.pragma('user_version = 1');
    db.close();
    const again = await startServer({ dataFile: file, limits: 'off', linkId: 'schema1-link', admin: true });
    try {
      const snap = await json(`${again.adminUrl}/snapshot`, { headers: { authorization: `Bearer ${again.adminToken}` } });
      expect(Buffer.from(snap.assets[0].base64, 'base64').equals(bytes)).toBe(true);
      const up = await json(`${again.baseUrl}/upload?position=end&pageId=${ids.unsorted}`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: bytes,
      });
      expect(Buffer.from(await (await fetch(up.assetUrl)).arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await again.close();
    }
  });

  it('refuses a file written by a newer version', async () => {
    const file = path.join(dir, 'newer.db');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    await expect(startServer({ dataFile: file })).rejects.toThrow(/newer than this server/);
  });
});
