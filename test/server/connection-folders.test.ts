// Conformance: GET /connection and the folder endpoints (docs/api.md "Folders", "Connection").
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { fixture, ids } from './spaceFixture.js';

const h = useHarness({ fixture });

const folderIds = (items: any[]): string[] => items.flatMap((f) => [f.id, ...folderIds(f.folders ?? [])]);
const find = (items: any[], id: string): any => {
  for (const f of items) {
    if (f.id === id) return f;
    const inner = find(f.folders ?? [], id);
    if (inner) return inner;
  }
  return undefined;
};

describe('GET /connection', () => {
  it('gives the space, its time zone, local time and friendly date, the UTC clock and the app URL template', async () => {
    const r = await h.api('GET', '/connection');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      space: { id: 'SPACE-1', name: 'Test Space', timezone: 'Europe/Berlin', time: '2026-09-05T12:00:00', friendlyDate: '5 Sep' },
      utc: { time: '2026-09-05T10:00:00Z' },
      urlTemplates: { app: expect.any(String) },
    });
  });

  it("urlTemplates.app is the clients' app scheme with the space filled in and one {blockId} placeholder", async () => {
    const app = (await h.api('GET', '/connection')).body.urlTemplates.app as string;
    expect(app).toBe('craftdocs://open?spaceId=SPACE-1&blockId={blockId}');
    // What a client's deeplink(blockId) makes of it, and the clickableLink of the same document.
    expect(app.replace('{blockId}', 'D-UNS')).toBe('craftdocs://open?spaceId=SPACE-1&blockId=D-UNS');
    const listed = (await h.api('GET', '/documents', { query: { documentIds: 'D-UNS', fetchMetadata: true } })).body.items[0];
    expect(listed.clickableLink).toBe('craftdocs://open?spaceId=SPACE-1&documentId=D-UNS');
  });

  it('utc.time is the service clock: it follows the server clock', async () => {
    h.clock.advance(36 * 3600_000);
    const r = await h.api('GET', '/connection');
    expect(r.body.utc.time).toBe('2026-09-06T22:00:00Z');
    expect(r.body.space.friendlyDate).toBe('7 Sep');
    expect(r.body.space.time).toBe('2026-09-07T00:00:00');
    h.clock.advance(-36 * 3600_000);
  });
});

describe('GET /folders', () => {
  it('lists the built-in locations with their names and ids', async () => {
    const r = await h.api('GET', '/folders');
    expect(r.status).toBe(200);
    const builtIns = r.body.items.filter((f: any) => ['unsorted', 'templates', 'trash'].includes(f.id));
    expect(builtIns.map((f: any) => [f.id, f.name])).toEqual([
      ['unsorted', 'Unsorted'],
      ['templates', 'Templates'],
      ['trash', 'Recently Deleted'],
    ]);
  });

  it('lists user folders recursively with their document counts', async () => {
    const r = await h.api('GET', '/folders');
    const projects = find(r.body.items, ids.projects);
    expect(projects).toMatchObject({ name: 'Projects', documentCount: 1 });
    expect(projects.folders[0]).toMatchObject({ id: ids.archive, name: 'Archive', documentCount: 1 });
    expect(projects.folders[0].folders[0]).toMatchObject({ id: ids.old, name: 'Old', documentCount: 1, folders: [] });
    expect(find(r.body.items, 'unsorted').documentCount).toBe(2);
    expect(find(r.body.items, 'trash').documentCount).toBe(1);
    expect(find(r.body.items, 'templates').documentCount).toBe(1);
  });
});

describe('POST /folders', () => {
  it('creates a folder at the root when no parent is given', async () => {
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'Inbox zero' }] } });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([{ id: expect.any(String), name: 'Inbox zero' }]);
    const list = await h.api('GET', '/folders');
    expect(list.body.items.map((f: any) => f.id)).toContain(r.body.items[0].id);
  });

  it('creates a nested folder and echoes parentFolderId', async () => {
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'Q3', parentFolderId: ids.projects }] } });
    expect(r.body.items).toEqual([{ id: expect.any(String), name: 'Q3', parentFolderId: ids.projects }]);
    const list = await h.api('GET', '/folders');
    expect(find(list.body.items, ids.projects).folders.map((f: any) => f.name)).toEqual(['Archive', 'Q3']);
  });

  it.each(['unsorted', 'templates', 'trash'])('refuses to create a folder inside the built-in %s', async (loc) => {
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'x', parentFolderId: loc }] } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_ERROR');
  });

  it('answers 404 for an unknown parent', async () => {
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: 'x', parentFolderId: 'NOPE' }] } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND_ERROR' });
  });

  it('refuses an empty name with a validation issue list', async () => {
    const r = await h.api('POST', '/folders', { body: { folders: [{ name: '' }] } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'Validation failed', code: 'VALIDATION_ERROR', details: [expect.objectContaining({ message: expect.any(String) })] });
  });
});

describe('DELETE /folders', () => {
  it('answers bare id strings', async () => {
    const r = await h.api('DELETE', '/folders', { body: { folderIds: [ids.personal] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [ids.personal] });
  });

  it('moves the documents of a top-level folder to Unsorted and its subfolders to the root', async () => {
    await h.api('DELETE', '/folders', { body: { folderIds: [ids.projects] } });
    const folders = await h.api('GET', '/folders');
    expect(folderIds(folders.body.items)).not.toContain(ids.projects);
    expect(folders.body.items.map((f: any) => f.id)).toContain(ids.archive);
    const unsorted = await h.api('GET', '/documents', { query: { location: 'unsorted' } });
    expect(unsorted.body.items.map((d: any) => d.id)).toContain(ids.roadmap);
  });

  it('moves the documents and subfolders of a nested folder to its parent', async () => {
    await h.api('DELETE', '/folders', { body: { folderIds: [ids.archive] } });
    const folders = await h.api('GET', '/folders');
    const projects = find(folders.body.items, ids.projects);
    expect(projects.folders.map((f: any) => f.id)).toEqual([ids.old]);
    expect(projects.documentCount).toBe(2);
    const docs = await h.api('GET', '/documents', { query: { folderId: ids.projects } });
    expect(docs.body.items.map((d: any) => d.id)).toEqual(expect.arrayContaining([ids.oldPlan, ids.roadmap, ids.ancient]));
  });

  it.each(['unsorted', 'templates', 'trash'])('refuses to delete the built-in %s', async (loc) => {
    const r = await h.api('DELETE', '/folders', { body: { folderIds: [loc] } });
    expect(r.status).toBe(400);
  });

  it('answers 404 for an unknown folder and changes nothing (one transaction per request)', async () => {
    const r = await h.api('DELETE', '/folders', { body: { folderIds: [ids.personal, 'NOPE'] } });
    expect(r.status).toBe(404);
    const folders = await h.api('GET', '/folders');
    expect(folderIds(folders.body.items)).toContain(ids.personal);
  });
});

describe('PUT /folders/move', () => {
  it('moves a folder under another and echoes {parentFolderId}', async () => {
    const r = await h.api('PUT', '/folders/move', { body: { folderIds: [ids.personal], destination: { parentFolderId: ids.projects } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: ids.personal, destination: { parentFolderId: ids.projects } }] });
    const folders = await h.api('GET', '/folders');
    expect(find(folders.body.items, ids.projects).folders.map((f: any) => f.id)).toContain(ids.personal);
  });

  it('moves a folder to the root and echoes "root"', async () => {
    const r = await h.api('PUT', '/folders/move', { body: { folderIds: [ids.old], destination: 'root' } });
    expect(r.body).toEqual({ items: [{ id: ids.old, destination: 'root' }] });
    const folders = await h.api('GET', '/folders');
    expect(folders.body.items.map((f: any) => f.id)).toContain(ids.old);
  });

  it.each(['unsorted', 'templates', 'trash'])('refuses to move the built-in %s', async (loc) => {
    const r = await h.api('PUT', '/folders/move', { body: { folderIds: [loc], destination: 'root' } });
    expect(r.status).toBe(400);
  });

  it('refuses to move a folder into a built-in location', async () => {
    const r = await h.api('PUT', '/folders/move', { body: { folderIds: [ids.personal], destination: { parentFolderId: 'templates' } } });
    expect(r.status).toBe(400);
  });

  it('refuses to move a folder into itself or its own subfolder', async () => {
    expect((await h.api('PUT', '/folders/move', { body: { folderIds: [ids.projects], destination: { parentFolderId: ids.old } } })).status).toBe(400);
    expect((await h.api('PUT', '/folders/move', { body: { folderIds: [ids.projects], destination: { parentFolderId: ids.projects } } })).status).toBe(400);
  });

  it('answers 404 for an unknown folder', async () => {
    const r = await h.api('PUT', '/folders/move', { body: { folderIds: ['NOPE'], destination: 'root' } });
    expect(r.status).toBe(404);
  });
});
