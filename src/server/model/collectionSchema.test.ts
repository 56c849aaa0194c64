import { describe, expect, it } from 'vitest';
import { buildSchema, itemsJsonSchema, keyFromName, readSchema, schemaReadForm, schemaWriteForm } from './collectionSchema.js';

describe('keyFromName', () => {
  it('camel-cases the words of a name', () => {
    expect(keyFromName('Due Date')).toBe('dueDate');
    expect(keyFromName('URL')).toBe('url');
    expect(keyFromName('  project  ID ')).toBe('projectId');
    expect(keyFromName('Café-Owner')).toBe('cafeOwner');
    expect(keyFromName('2024 goals')).toBe('2024Goals');
    expect(keyFromName('!!!')).toBe('property');
  });
});

describe('buildSchema', () => {
  const input = (properties: Array<{ key?: string; name: string; type: string; options?: Array<{ name: string; color?: string }> }>) => ({
    name: 'C',
    contentPropDetails: { name: 'Title' },
    properties,
  });

  it('derives unique keys, keeps sent ones, gives every property an id', () => {
    const s = buildSchema(
      input([
        { name: 'Status', type: 'text' },
        { key: 'status2', name: 'Other', type: 'text' },
        { name: 'Status', type: 'text' },
      ]),
      undefined,
    );
    expect(s.properties.map((p) => p.key)).toEqual(['status', 'status2', 'status3']);
    expect(new Set(s.properties.map((p) => p.id)).size).toBe(3);
  });

  it('on replace, a property named like an existing one keeps its key and id', () => {
    const first = buildSchema(input([{ name: 'Due Date', type: 'date' }]), undefined);
    const second = buildSchema(
      input([
        { name: 'Owner', type: 'text' },
        { name: 'Due Date', type: 'date' },
      ]),
      first,
    );
    expect(second.properties.map((p) => [p.key, p.id === first.properties[0]!.id])).toEqual([
      ['owner', false],
      ['dueDate', true],
    ]);
  });

  it('a renamed property sent with its key keeps its id', () => {
    const first = buildSchema(input([{ name: 'Due', type: 'date' }]), undefined);
    const second = buildSchema(input([{ key: 'due', name: 'Deadline', type: 'date' }]), first);
    expect(second.properties[0]).toMatchObject({ key: 'due', name: 'Deadline', id: first.properties[0]!.id });
  });

  it('fills option colors in turn and writes select as singleSelect', () => {
    const s = buildSchema(input([{ name: 'S', type: 'select', options: [{ name: 'a' }, { name: 'b' }, { name: 'c', color: 'red' }] }]), undefined);
    expect(schemaWriteForm(s).properties).toEqual([
      {
        key: 's',
        name: 'S',
        type: 'singleSelect',
        options: [
          { name: 'a', color: 'yellow' },
          { name: 'b', color: 'sky-blue' },
          { name: 'c', color: 'red' },
        ],
      },
    ]);
  });
});

describe('reading and the two read formats', () => {
  it('reads a hand-written schema: missing keys derived, string options accepted', () => {
    const s = readSchema(JSON.stringify({ name: 'B', properties: [{ name: 'Genre', type: 'singleSelect', options: ['Novel', 'Essay'] }] }), 'B');
    expect(s.contentPropDetails).toEqual({ key: 'title', name: 'Title' });
    expect(schemaReadForm(s).properties).toEqual([{ key: 'genre', name: 'Genre', type: 'select', options: ['Novel', 'Essay'] }]);
    const json = itemsJsonSchema(s) as any;
    expect(json.properties.items.items.properties.properties.properties.genre.enum).toEqual(['Novel', 'Essay']);
  });
});
