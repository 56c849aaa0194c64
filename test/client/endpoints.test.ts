// Every endpoint of the client against the real server and the demo space: the typed functions
// send what the server accepts and read what it answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SpaceClient } from '../../src/client/index.js';
import { readFixtureFile, startServer, type RunningServer } from '../../src/server/index.js';

let server: RunningServer;
let client: SpaceClient;
let docId: (title: string) => string;

beforeAll(async () => {
  server = await startServer({ port: 0, seed: readFixtureFile('fixtures/spaces/demo.json'), limits: 'off' });
  client = createClient({ link: server.baseUrl });
  const docs = await client.listDocuments();
  docId = (title) => docs.items.find((d) => d.title === title)!.id;
});

afterAll(async () => {
  client.close();
  await server.close();
});

describe('the client against the demo space', () => {
  it('folders: create, move, delete', async () => {
    const [parent, child] = (await client.createFolders({ folders: [{ name: 'Client parent' }, { name: 'Client child' }] })).items;
    const moved = await client.moveFolders({ folderIds: [child!.id], destination: { parentFolderId: parent!.id } });
    expect(moved.items).toEqual([{ id: child!.id, destination: { parentFolderId: parent!.id } }]);
    const tree = await client.listFolders();
    expect(tree.items.find((f) => f.id === parent!.id)?.folders?.map((f) => f.id)).toEqual([child!.id]);
    await client.moveFolders({ folderIds: [child!.id], destination: 'root' });
    await expect(client.deleteFolders({ folderIds: [child!.id, parent!.id] })).resolves.toEqual({ items: [child!.id, parent!.id] });
  });

  it('tasks: list by scope, create, update, delete', async () => {
    const all = await client.listTasks({ scope: 'all' });
    expect(all.items.length).toBeGreaterThan(0);
    const inDoc = await client.listTasks({ scope: 'document', documentId: docId('Q3 goals') });
    expect(inDoc.items.length).toBeGreaterThan(0);
    expect(inDoc.items.every((t) => t.location?.type === 'document' && t.location.documentId === docId('Q3 goals'))).toBe(true);
    const created = await client.createTasks({ tasks: [{ markdown: 'Call the client', taskInfo: { scheduleDate: 'tomorrow' }, location: { type: 'inbox' } }] });
    const id = created.items[0]!.id;
    const done = await client.updateTasks({ tasksToUpdate: [{ id, taskInfo: { state: 'done' } }] });
    expect(done.items[0]!.taskInfo.state).toBe('done');
    await expect(client.deleteTasks({ idsToDelete: [id] })).resolves.toEqual({ items: [{ id }] });
  });

  it('collections: list, schema in both formats, items, views', async () => {
    const collections = await client.listCollections({ documentIds: [docId('Website relaunch')] });
    const id = collections.items[0]!.id;
    const schema = await client.getCollectionSchema(id, { format: 'schema' });
    expect(schema.properties.map((p) => p.key)).toContain('status');
    const jsonSchema = await client.getCollectionSchema(id);
    expect(jsonSchema.type).toBe('object');
    const added = await client.addCollectionItems(id, { items: [{ title: 'From the client', properties: { status: 'Todo' } }] });
    const itemId = added.items[0]!.id;
    const updated = await client.updateCollectionItems(id, { itemsToUpdate: [{ id: itemId, properties: { status: 'Done' } }] });
    expect(updated.items[0]!.properties.status).toBe('Done');
    expect((await client.listCollectionItems(id, { maxDepth: 0 })).items.map((i) => i.id)).toContain(itemId);
    await expect(client.deleteCollectionItems(id, { idsToDelete: [itemId] })).resolves.toEqual({ items: [{ id: itemId }] });

    const views = await client.listCollectionViews(id);
    expect(views.views.length).toBeGreaterThan(0);
    const view = await client.createCollectionView(id, { view: { name: 'Board', type: 'kanban', groupBy: [{ property: 'status' }] } });
    const renamed = await client.updateCollectionView(id, view.id, { view: { name: 'Status board' } });
    expect(renamed.name).toBe('Status board');
    await expect(client.setActiveCollectionView(id, { viewId: view.id })).resolves.toMatchObject({ id: view.id });
    await expect(client.deleteCollectionView(id, view.id)).resolves.toMatchObject({ deletedViewId: view.id });
  });

  it('collections: create one and replace its schema', async () => {
    const created = await client.createCollection({
      schema: {
        name: 'Reading list',
        contentPropDetails: { name: 'Notes' },
        properties: [{ name: 'Status', type: 'singleSelect', options: [{ name: 'To read', color: 'red' }] }],
      },
      position: { position: 'end', pageId: docId('Books to read') },
    });
    const key = created.schema.properties[0]!.key!;
    const replaced = await client.updateCollectionSchema(created.collectionBlockId, {
      schema: {
        name: 'Reading list',
        contentPropDetails: { name: 'Notes' },
        properties: [
          {
            key,
            name: 'Status',
            type: 'singleSelect',
            options: [
              { name: 'To read', color: 'red' },
              { name: 'Read', color: 'mint-green' },
            ],
          },
        ],
      },
    });
    expect(replaced.schema.properties[0]!.options?.map((o) => o.name)).toEqual(['To read', 'Read']);
  });

  it('comments, reminders, upload', async () => {
    const doc = await client.getBlocks({ id: docId('Quick idea') });
    const blockId = doc.content![0]!.id;
    const comments = await client.createComments({ comments: [{ blockId, content: 'A thought' }] });
    expect(comments.items[0]!.commentId).toEqual(expect.any(String));

    const reminder = (await client.createReminders({ reminders: [{ blockId }] })).items[0]!;
    expect(reminder.remindAt).toBeUndefined();
    const scheduled = await client.updateReminders({ remindersToUpdate: [{ id: reminder.id, remindAt: '2031-01-01T09:00:00+01:00' }] });
    expect(Date.parse(scheduled.items[0]!.remindAt!)).toBe(Date.parse('2031-01-01T08:00:00Z'));
    const page = await client.listReminders({ status: 'all', limit: 1 });
    expect(page.items).toHaveLength(1);
    await expect(client.deleteReminders({ idsToDelete: [reminder.id] })).resolves.toEqual({ items: [reminder.id] });

    const uploaded = await client.upload(new Uint8Array([37, 80, 68, 70]), 'application/pdf', { position: 'after', siblingId: blockId, fileName: 'idea.pdf' });
    const after = await client.getBlocks({ id: docId('Quick idea') });
    expect(after.content!.find((b) => b.id === uploaded.blockId)?.type).toBe('file');
  });

  it('whiteboards: create, add, update, delete elements', async () => {
    const { whiteboardBlockId } = await client.createWhiteboard({ position: { position: 'end', pageId: docId('Architecture sketch') } });
    const added = await client.addWhiteboardElements(whiteboardBlockId, {
      elements: [{ id: 'e1', type: 'rectangle', x: 0, y: 0, width: 10, height: 10, text: 'box' }],
    });
    expect(added.elements.map((e) => e.id)).toEqual(['e1']);
    const updated = await client.updateWhiteboardElements(whiteboardBlockId, { elements: [{ id: 'e1', text: 'renamed' }] });
    expect(updated.elements[0]).toMatchObject({ id: 'e1', text: 'renamed', width: 10 });
    expect((await client.getWhiteboardElements(whiteboardBlockId)).elements).toHaveLength(1);
    await expect(client.deleteWhiteboardElements(whiteboardBlockId, { elementIds: ['e1'] })).resolves.toEqual({ deletedCount: 1, remainingCount: 0 });
    expect(() => client.addWhiteboardElements(whiteboardBlockId, { elements: Array.from({ length: 501 }, (_, i) => ({ id: `x${i}` })) })).toThrow(
      /at most 500/,
    );
  });

  it('documents: search with repeated keys and daily notes by date', async () => {
    const hits = await client.searchDocuments({ include: ['sync'], fetchBlocks: true });
    expect(hits.items.length).toBeGreaterThan(0);
    expect(hits.items[0]!.blocks?.length).toBeGreaterThan(0);
    const notes = await client.listDocuments({ location: 'daily_notes' });
    const note = notes.items.find((d) => d.dailyNoteDate !== undefined)!;
    expect((await client.getBlocks({ date: note.dailyNoteDate! })).id).toBe(note.id);
  });
});
