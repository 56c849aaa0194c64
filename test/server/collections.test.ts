// Conformance: GET/POST /collections, the schema in both formats and its replacement, items
// (read with a depth, add, update, delete with their content), property values checked against
// the schema, and the collection's output-only markdown (docs/api.md "Collections", "Collection
// and schema", "Markdown dialect").
import { describe, expect, it } from 'vitest';
import { flatten, useHarness } from './harness.js';
import { ids } from './spaceFixture.js';
import { collectionFixture } from './collectionsFixture.js';

const h = useHarness({ fixture: collectionFixture });

const items = async (id = 'C-1', query: Record<string, string | number> = {}) =>
  (await h.api('GET', `/collections/${id}/items`, { query })).body.items as any[];
const addItems = (body: unknown, id = 'C-1') => h.api('POST', `/collections/${id}/items`, { body });
const updateItems = (body: unknown, id = 'C-1') => h.api('PUT', `/collections/${id}/items`, { body });
const schemaOf = async (id = 'C-1', format?: string) => (await h.api('GET', `/collections/${id}/schema`, { query: format ? { format } : {} })).body;
const createCollection = (body: unknown) => h.api('POST', '/collections', { body });
const baseSchema = {
  name: 'Projects',
  contentPropDetails: { name: 'Project' },
  properties: [
    { name: 'Due Date', type: 'date' },
    { name: 'Stage', type: 'singleSelect', options: [{ name: 'Idea' }, { name: 'Live', color: 'red' }] },
    { key: 'lead', name: 'Lead person', type: 'text' },
  ],
};

describe('GET /collections', () => {
  it('lists every collection with id, name, itemCount and documentId when documentIds is omitted', async () => {
    const r = await h.api('GET', '/collections');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      items: [
        { id: 'C-1', name: 'Launch tasks', itemCount: 3, documentId: 'D-COLL' },
        { id: 'C-2', name: 'Books', itemCount: 0, documentId: 'D-COLL2' },
      ],
    });
  });

  it('documentIds as one value or repeated keys limits the list to those documents', async () => {
    expect((await h.api('GET', '/collections', { query: { documentIds: 'D-COLL2' } })).body.items.map((c: any) => c.id)).toEqual(['C-2']);
    expect((await h.api('GET', '/collections', { query: { documentIds: ['D-COLL2', 'D-COLL'] } })).body.items.map((c: any) => c.id)).toEqual(['C-1', 'C-2']);
    expect((await h.api('GET', '/collections', { query: { documentIds: ids.roadmap } })).body.items).toEqual([]);
  });
});

describe('POST /collections', () => {
  it('creates a collection at the position: keys derived from names, explicit keys kept, option colors filled in', async () => {
    const r = await createCollection({ schema: baseSchema, position: { position: 'after', siblingId: 'B-HELLO' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      collectionBlockId: expect.any(String),
      name: 'Projects',
      schema: {
        name: 'Projects',
        contentPropDetails: { key: 'title', name: 'Project' },
        properties: [
          { key: 'dueDate', name: 'Due Date', type: 'date' },
          {
            key: 'stage',
            name: 'Stage',
            type: 'singleSelect',
            options: [
              { name: 'Idea', color: 'yellow' },
              { name: 'Live', color: 'red' },
            ],
          },
          { key: 'lead', name: 'Lead person', type: 'text' },
        ],
      },
    });
    const doc = (await h.api('GET', '/blocks', { query: { id: ids.unsorted } })).body;
    expect(doc.content.map((b: any) => b.id)).toEqual(['B-HELLO', r.body.collectionBlockId]);
    expect(doc.content[1]).toMatchObject({ type: 'collection', content: [] });
    const listed = (await h.api('GET', '/collections', { query: { documentIds: ids.unsorted } })).body.items;
    expect(listed).toEqual([{ id: r.body.collectionBlockId, name: 'Projects', itemCount: 0, documentId: ids.unsorted }]);
  });

  it('keys are unique: a repeated name gets a numbered key, and the title key is never reused', async () => {
    const r = await createCollection({
      schema: {
        name: 'x',
        contentPropDetails: { name: 'Name' },
        properties: [
          { name: 'Status', type: 'text' },
          { name: 'status', type: 'text' },
          { name: 'Title', type: 'text' },
          { name: '¡Año nuevo!', type: 'text' },
        ],
      },
      position: { position: 'end', pageId: ids.unsorted },
    });
    expect(r.body.schema.properties.map((p: any) => p.key)).toEqual(['status', 'status2', 'title2', 'anoNuevo']);
  });

  it('into a page with start/end, or a daily note by date', async () => {
    const a = await createCollection({ schema: baseSchema, position: { position: 'start', pageId: ids.unsorted } });
    expect((await h.api('GET', '/blocks', { query: { id: ids.unsorted, maxDepth: 1 } })).body.content[0].id).toBe(a.body.collectionBlockId);
    const b = await createCollection({ schema: baseSchema, position: { position: 'end', date: '2026-09-04' } });
    expect((await h.api('GET', '/blocks', { query: { date: '2026-09-04', maxDepth: 1 } })).body.content.at(-1).id).toBe(b.body.collectionBlockId);
  });

  it('refuses a schema without a name, a title property name, property names or types, and a bad position', async () => {
    const at = { position: 'end', pageId: ids.unsorted };
    expect((await createCollection({ position: at })).status).toBe(400);
    expect((await createCollection({ schema: { contentPropDetails: { name: 'N' }, properties: [] }, position: at })).status).toBe(400);
    expect((await createCollection({ schema: { name: 'x', properties: [] }, position: at })).status).toBe(400);
    expect((await createCollection({ schema: { name: 'x', contentPropDetails: { name: 'N' }, properties: [{ type: 'text' }] }, position: at })).status).toBe(
      400,
    );
    expect((await createCollection({ schema: { name: 'x', contentPropDetails: { name: 'N' }, properties: [{ name: 'a' }] }, position: at })).status).toBe(400);
    expect((await createCollection({ schema: baseSchema, position: { position: 'middle' } })).status).toBe(400);
    expect((await createCollection({ schema: baseSchema, position: { position: 'end', pageId: 'NOPE' } })).status).toBe(404);
    expect((await h.api('GET', '/collections')).body.items).toHaveLength(2);
  });

  it('refuses two properties with the same key, and options on date or text properties', async () => {
    const at = { position: 'end', pageId: ids.unsorted };
    const r = await createCollection({
      schema: {
        name: 'x',
        contentPropDetails: { name: 'N' },
        properties: [
          { key: 'a', name: 'A', type: 'text' },
          { key: 'a', name: 'B', type: 'text' },
        ],
      },
      position: at,
    });
    expect(r.status).toBe(400);
    expect(r.body.details[0].message).toMatch(/unique/);
    expect(
      (
        await createCollection({
          schema: { name: 'x', contentPropDetails: { name: 'N' }, properties: [{ name: 'When', type: 'date', options: [{ name: 'x' }] }] },
          position: at,
        })
      ).status,
    ).toBe(400);
  });
});

describe('GET /collections/{id}/schema', () => {
  it('defaults to format json-schema-items: the JSON Schema of the item payload', async () => {
    const s = await schemaOf();
    expect(s).toMatchObject({
      type: 'object',
      required: ['items'],
      additionalProperties: false,
      properties: { items: { type: 'array', items: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } },
    });
    const props = s.properties.items.items.properties.properties;
    expect(props.type).toBe('object');
    expect(props.properties.status).toMatchObject({ type: 'string', enum: ['Todo', 'Doing', 'Done'] });
    expect(props.properties.dueDate).toMatchObject({ type: 'string' });
    expect(props.properties.owner).toMatchObject({ type: 'string' });
    expect(await schemaOf('C-1', 'json-schema-items')).toEqual(s);
  });

  it('format=schema: key, name, contentPropDetails, properties with select options as strings, propertyDetails again', async () => {
    const props = [
      { key: 'status', name: 'Status', type: 'select', options: ['Todo', 'Doing', 'Done'] },
      { key: 'dueDate', name: 'Due Date', type: 'date', options: [] },
      { key: 'owner', name: 'Owner', type: 'text', options: [] },
    ];
    expect(await schemaOf('C-1', 'schema')).toEqual({
      key: 'launchTasks',
      name: 'Launch tasks',
      contentPropDetails: { key: 'title', name: 'Task' },
      properties: props,
      propertyDetails: props,
    });
  });

  it('refuses another format; an unknown collection, or a block that is not one, is a 404', async () => {
    expect((await h.api('GET', '/collections/C-1/schema', { query: { format: 'yaml' } })).status).toBe(400);
    expect((await h.api('GET', '/collections/NOPE/schema')).status).toBe(404);
    expect((await h.api('GET', '/collections/B-INTRO/schema')).status).toBe(404);
  });
});

describe('PUT /collections/{id}/schema', () => {
  it('replaces the schema: keys of kept properties stay, new ones are derived, dropped ones lose their values', async () => {
    const r = await h.api('PUT', '/collections/C-1/schema', {
      body: {
        schema: {
          name: 'Launch checklist',
          contentPropDetails: { name: 'Task' },
          properties: [
            {
              key: 'status',
              name: 'State',
              type: 'singleSelect',
              options: [
                { name: 'Todo', color: 'gray' },
                { name: 'Doing', color: 'yellow' },
                { name: 'Done', color: 'mint-green' },
              ],
            },
            { name: 'Due Date', type: 'date' },
            { name: 'Effort', type: 'text' },
          ],
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      collectionBlockId: 'C-1',
      schema: {
        name: 'Launch checklist',
        contentPropDetails: { key: 'title', name: 'Task' },
        properties: [
          {
            key: 'status',
            name: 'State',
            type: 'singleSelect',
            options: [
              { name: 'Todo', color: 'gray' },
              { name: 'Doing', color: 'yellow' },
              { name: 'Done', color: 'mint-green' },
            ],
          },
          { key: 'dueDate', name: 'Due Date', type: 'date' },
          { key: 'effort', name: 'Effort', type: 'text' },
        ],
      },
    });
    const its = await items('C-1', { maxDepth: 0 });
    expect(its.find((i) => i.id === 'I-1').properties).toEqual({ status: 'Doing', dueDate: '2026-09-08' });
    expect((await h.api('GET', '/collections')).body.items[0].name).toBe('Launch checklist');
  });

  it('a select value whose option is gone is cleared', async () => {
    await h.api('PUT', '/collections/C-1/schema', {
      body: {
        schema: {
          name: 'Launch tasks',
          contentPropDetails: { name: 'Task' },
          properties: [{ key: 'status', name: 'Status', type: 'singleSelect', options: [{ name: 'Todo' }, { name: 'Done' }] }],
        },
      },
    });
    const by = new Map((await items('C-1', { maxDepth: 0 })).map((i) => [i.id, i.properties]));
    expect(by.get('I-1')).toEqual({});
    expect(by.get('I-2')).toEqual({ status: 'Todo' });
  });

  it('refuses a schema without its parts, and an unknown collection is a 404', async () => {
    expect((await h.api('PUT', '/collections/C-1/schema', { body: { schema: { name: 'x' } } })).status).toBe(400);
    expect((await h.api('PUT', '/collections/NOPE/schema', { body: { schema: baseSchema } })).status).toBe(404);
  });
});

describe('GET /collections/{id}/items', () => {
  it('answers every item with id, title, properties and, by default (maxDepth -1), all its content', async () => {
    const its = await items();
    expect(its.map((i) => i.id)).toEqual(['I-1', 'I-2', 'I-3']);
    expect(its[0]).toMatchObject({ id: 'I-1', title: 'Copy review', properties: { status: 'Doing', dueDate: '2026-09-08', owner: 'Ana' } });
    expect(
      flatten({ content: its[0].content })
        .slice(1)
        .map((b) => b.id),
    ).toEqual(['I-1-C', 'I-1-P', 'I-1-PC']);
    expect(its[1]).toEqual({ id: 'I-2', title: 'Screenshots', properties: { status: 'Todo', owner: 'Ben' }, content: [] });
  });

  it('maxDepth=0 gives properties and a preview of the content; maxDepth=1 the direct content', async () => {
    expect((await items('C-1', { maxDepth: 0 }))[0]).toEqual({
      id: 'I-1',
      title: 'Copy review',
      properties: { status: 'Doing', dueDate: '2026-09-08', owner: 'Ana' },
      contentPreviewMd: 'check the tone\nNotes\ndeep note',
    });
    const one = (await items('C-1', { maxDepth: 1 }))[0];
    expect(one.content.map((b: any) => b.id)).toEqual(['I-1-C', 'I-1-P']);
    expect(one.content[1].content).toBeUndefined();
    expect(one.content[1].contentPreviewMd).toBe('deep note');
  });

  it('refuses a maxDepth below -1; an unknown collection is a 404', async () => {
    expect((await h.api('GET', '/collections/C-1/items', { query: { maxDepth: -2 } })).status).toBe(400);
    expect((await h.api('GET', '/collections/NOPE/items')).status).toBe(404);
  });

  it('counts every item and content block read against the block budget', async () => {
    await h.admin('DELETE', '/requests');
    await items();
    await items('C-1', { maxDepth: 0 });
    const log = (await h.admin('GET', '/requests')).body.items;
    expect(log.map((e: any) => e.blocksCharged)).toEqual([6, 3]);
  });
});

describe('POST /collections/{id}/items', () => {
  it('adds items at the end and answers them with their ids', async () => {
    const r = await addItems({ items: [{ title: 'Press kit', properties: { status: 'Todo', dueDate: '2026-09-20', owner: 'Cleo' } }, { title: 'Bare' }] });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      { id: expect.any(String), title: 'Press kit', properties: { status: 'Todo', dueDate: '2026-09-20', owner: 'Cleo' } },
      { id: expect.any(String), title: 'Bare', properties: {} },
    ]);
    expect((await items()).map((i) => i.title)).toEqual(['Copy review', 'Screenshots', 'DNS switch', 'Press kit', 'Bare']);
    expect((await h.api('GET', '/collections', { query: { documentIds: 'D-COLL' } })).body.items[0].itemCount).toBe(5);
  });

  it('a select value must be one of the options', async () => {
    const r = await addItems({ items: [{ title: 'x', properties: { status: 'Blocked' } }] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: ['items', 0, 'properties', 'status'] }] });
    expect(r.body.details[0].message).toMatch(/allowNewSelectOptions/);
    expect(await items()).toHaveLength(3);
  });

  it('allowNewSelectOptions: true adds the new option to the schema', async () => {
    const r = await addItems({ items: [{ title: 'x', properties: { status: 'Blocked' } }], allowNewSelectOptions: true });
    expect(r.status).toBe(200);
    expect((await schemaOf('C-1', 'schema')).properties[0].options).toEqual(['Todo', 'Doing', 'Done', 'Blocked']);
    const write = await h.api('PUT', '/collections/C-1/schema', {
      body: { schema: { name: 'Launch tasks', contentPropDetails: { name: 'Task' }, properties: [] } },
    });
    expect(write.status).toBe(200);
  });

  it('a date value must be a calendar day (today, tomorrow and yesterday are resolved); a text value a string', async () => {
    expect((await addItems({ items: [{ title: 'x', properties: { dueDate: 'soon' } }] })).status).toBe(400);
    expect((await addItems({ items: [{ title: 'x', properties: { dueDate: '2026-13-01' } }] })).status).toBe(400);
    expect((await addItems({ items: [{ title: 'x', properties: { owner: 42 } }] })).status).toBe(400);
    const r = await addItems({ items: [{ title: 'x', properties: { dueDate: 'tomorrow' } }] });
    expect(r.body.items[0].properties).toEqual({ dueDate: '2026-09-06' });
  });

  it('refuses an unknown property key and an item without a title', async () => {
    const r = await addItems({ items: [{ title: 'x', properties: { priority: 'high' } }] });
    expect(r.status).toBe(400);
    expect(r.body.details[0].message).toMatch(/status, dueDate, owner/);
    expect((await addItems({ items: [{ properties: {} }] })).status).toBe(400);
    expect((await addItems({ items: [] })).status).toBe(400);
  });
});

describe('PUT /collections/{id}/items', () => {
  it('changes only the properties sent; null clears one; the title may change', async () => {
    const r = await updateItems({
      itemsToUpdate: [
        { id: 'I-1', properties: { status: 'Done', owner: null } },
        { id: 'I-2', title: 'New screenshots' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([
      { id: 'I-1', title: 'Copy review', properties: { status: 'Done', dueDate: '2026-09-08' } },
      { id: 'I-2', title: 'New screenshots', properties: { status: 'Todo', owner: 'Ben' } },
    ]);
    expect((await items())[0].content).toHaveLength(2);
  });

  it('checks values like POST, allowNewSelectOptions included', async () => {
    expect((await updateItems({ itemsToUpdate: [{ id: 'I-1', properties: { status: 'Paused' } }] })).status).toBe(400);
    expect((await updateItems({ itemsToUpdate: [{ id: 'I-1', properties: { status: 'Paused' } }], allowNewSelectOptions: true })).status).toBe(200);
    expect((await schemaOf('C-1', 'schema')).properties[0].options).toContain('Paused');
  });

  it('an id that is not an item of this collection is a 404, and nothing changes', async () => {
    expect(
      (
        await updateItems({
          itemsToUpdate: [
            { id: 'I-1', properties: { status: 'Done' } },
            { id: 'NOPE', properties: {} },
          ],
        })
      ).status,
    ).toBe(404);
    expect((await updateItems({ itemsToUpdate: [{ id: 'B-INTRO', properties: {} }] })).status).toBe(404);
    expect((await items())[0].properties.status).toBe('Doing');
  });
});

describe('DELETE /collections/{id}/items', () => {
  it('deletes the items and the content inside them, answering {items: [{id}]}', async () => {
    const r = await h.api('DELETE', '/collections/C-1/items', { body: { idsToDelete: ['I-1', 'I-3'] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ items: [{ id: 'I-1' }, { id: 'I-3' }] });
    expect((await items()).map((i) => i.id)).toEqual(['I-2']);
    for (const id of ['I-1-C', 'I-1-P', 'I-1-PC']) expect((await h.api('GET', '/blocks', { query: { id } })).status).toBe(404);
  });

  it('an unknown item is a 404 and nothing is deleted', async () => {
    expect((await h.api('DELETE', '/collections/C-1/items', { body: { idsToDelete: ['I-1', 'NOPE'] } })).status).toBe(404);
    expect(await items()).toHaveLength(3);
  });
});

describe('collections in documents', () => {
  it('a collection renders with the output-only tags: title, property keys, items with properties and content', async () => {
    const block = (await h.api('GET', '/blocks', { query: { id: 'C-1' } })).body;
    expect(block.markdown).toBe(
      [
        '<collection>',
        '  <title>Launch tasks</title>',
        '  <properties>status, dueDate, owner</properties>',
        '  <content>',
        '    <collectionItem>',
        '      <title>Copy review</title>',
        '      <property name="status">Doing</property>',
        '      <property name="dueDate">2026-09-08</property>',
        '      <property name="owner">Ana</property>',
        '      <content>',
        '        check the tone',
        '',
        '        <page>',
        '        <pageTitle>Notes</pageTitle>',
        '        <content>',
        '        deep note',
        '        </content>',
        '        </page>',
        '      </content>',
        '    </collectionItem>',
        '    <collectionItem>',
        '      <title>Screenshots</title>',
        '      <property name="status">Todo</property>',
        '      <property name="owner">Ben</property>',
        '    </collectionItem>',
        '    <collectionItem>',
        '      <title>DNS switch</title>',
        '      <property name="status">Done</property>',
        '      <property name="dueDate">2026-09-03</property>',
        '    </collectionItem>',
        '  </content>',
        '</collection>',
      ].join('\n'),
    );
  });

  it('at the depth limit the items give way to an itemsPreview holding a table of the rows', async () => {
    const doc = (await h.api('GET', '/blocks', { query: { id: 'D-COLL', maxDepth: 1 } })).body;
    const table = [
      '| title | status | dueDate | owner |',
      '| --- | --- | --- | --- |',
      '| Copy review | Doing | 2026-09-08 | Ana |',
      '| Screenshots | Todo |  | Ben |',
      '| DNS switch | Done | 2026-09-03 |  |',
    ];
    expect(doc.content[1].itemsPreviewMd).toBe(table.join('\n'));
    expect(doc.content[1].markdown).toContain(['  <itemsPreview>', ...table.map((l) => `    ${l}`), '  </itemsPreview>'].join('\n'));
    expect(doc.content[1].markdown).not.toContain('<collectionItem>');
  });

  it('item writes re-render the stored markdown (search finds new items) and move the document lastModifiedAt', async () => {
    const added = await addItems({ items: [{ title: 'Zeppelin launch', properties: { owner: 'Dora' } }] });
    const hits = (await h.api('GET', '/blocks/search', { query: { blockId: 'D-COLL', pattern: 'Zeppelin' } })).body.items;
    expect(hits.map((x: any) => x.blockId)).toEqual(['C-1', added.body.items[0].id]);
    expect(hits[0].markdown).toContain('<title>Zeppelin launch</title>');
    const meta = (await h.api('GET', '/documents', { query: { documentIds: 'D-COLL', fetchMetadata: true } })).body.items[0];
    expect(meta.lastModifiedAt).toBe('2026-09-05T10:00:00.000Z');
  });

  it('collection items cannot be written with POST /blocks', async () => {
    expect(
      (await h.api('POST', '/blocks', { body: { blocks: [{ type: 'collectionItem', title: 'x' }], position: { position: 'end', pageId: 'D-COLL' } } })).status,
    ).toBe(400);
    expect((await h.api('POST', '/blocks', { body: { markdown: 'x', position: { position: 'end', pageId: 'C-1' } } })).status).toBe(400);
  });
});
