// A collection's schema: the write form clients send (keys derived from names, kept stable on
// replace), the stored form (plus internal property ids), the read form (`format=schema`) and
// the JSON Schema of the item payload (`format=json-schema-items`).
import { z } from 'zod';
import { validationFailed } from '../http/apiError.js';
import { newId } from '../store/openStore.js';

export interface SchemaOption {
  name: string;
  color: string;
}

export interface SchemaProperty {
  /** Internal, stable across renames; views name it `propertyId`. Fixtures may omit it (the key stands in). */
  id?: string;
  key: string;
  name: string;
  type: string;
  options?: SchemaOption[];
}

export interface StoredSchema {
  name: string;
  contentPropDetails: { key: string; name: string };
  properties: SchemaProperty[];
}

/** The key of the title (content) property, as views name it. */
export const TITLE_KEY = 'title';
/** Option colors handed out, in turn, to options sent without one. */
export const OPTION_COLORS = ['yellow', 'sky-blue', 'mint-green', 'gray', 'red'] as const;

const optionInput = z.object({ name: z.string().min(1, 'An option name cannot be empty.'), color: z.string().min(1).optional() });
const propertyInput = z.object({
  key: z.string().min(1).optional(),
  name: z.string().min(1, 'A property name cannot be empty.'),
  type: z.string().min(1, 'A property type cannot be empty.'),
  options: z.array(optionInput).optional(),
});
export const schemaInput = z.object({
  name: z.string(),
  contentPropDetails: z.object({ name: z.string().min(1, 'contentPropDetails.name cannot be empty.'), key: z.string().optional() }),
  properties: z.array(propertyInput),
});
export type SchemaInput = z.infer<typeof schemaInput>;

export function isSelect(type: string): boolean {
  return type === 'singleSelect' || type === 'select';
}

/** `Due Date` → `dueDate`: the words of a name in camel case (`property` when it has none). */
export function keyFromName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  if (words.length === 0) return 'property';
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

function uniqueKey(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}${n}`;
  return key;
}

function parseOptions(raw: unknown): SchemaOption[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((o, i) =>
    typeof o === 'string'
      ? { name: o, color: OPTION_COLORS[i % OPTION_COLORS.length]! }
      : { name: String((o as { name?: unknown }).name ?? ''), color: String((o as { color?: unknown }).color ?? OPTION_COLORS[i % OPTION_COLORS.length]) },
  );
}

/** The stored schema JSON, read tolerantly (fixtures write it by hand). */
export function readSchema(json: string, collectionName: string): StoredSchema {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const cpd = (raw.contentPropDetails ?? {}) as { key?: unknown; name?: unknown };
  const taken = new Set<string>([TITLE_KEY]);
  const properties = (Array.isArray(raw.properties) ? (raw.properties as Array<Record<string, unknown>>) : []).map((p) => {
    const name = String(p.name ?? '');
    const key = typeof p.key === 'string' && p.key !== '' ? p.key : uniqueKey(keyFromName(name), taken);
    taken.add(key);
    const type = String(p.type ?? 'text');
    const out: SchemaProperty = { key, name, type };
    if (typeof p.id === 'string') out.id = p.id;
    if (isSelect(type) || (Array.isArray(p.options) && p.options.length > 0)) out.options = parseOptions(p.options);
    return out;
  });
  return {
    name: typeof raw.name === 'string' ? raw.name : collectionName,
    contentPropDetails: { key: typeof cpd.key === 'string' && cpd.key !== '' ? cpd.key : TITLE_KEY, name: typeof cpd.name === 'string' ? cpd.name : 'Title' },
    properties,
  };
}

/**
 * The stored schema for a write: keys sent are kept, a property named like one of `previous`
 * keeps that one's key (keys stay stable on replace), the rest are derived from names.
 */
export function buildSchema(input: SchemaInput, previous: StoredSchema | undefined): StoredSchema {
  const issues: Array<{ message: string; path: Array<string | number> }> = [];
  const explicit = new Set<string>();
  input.properties.forEach((p, i) => {
    if (p.key === undefined) return;
    if (p.key === TITLE_KEY)
      issues.push({
        message: `The key '${TITLE_KEY}' belongs to the title property: choose another key for ${p.name}.`,
        path: ['schema', 'properties', i, 'key'],
      });
    else if (explicit.has(p.key))
      issues.push({ message: `The key '${p.key}' is used by two properties: keys must be unique.`, path: ['schema', 'properties', i, 'key'] });
    explicit.add(p.key);
  });
  input.properties.forEach((p, i) => {
    const names = new Set<string>();
    for (const o of p.options ?? []) {
      if (names.has(o.name)) issues.push({ message: `Property ${p.name} lists the option '${o.name}' twice.`, path: ['schema', 'properties', i, 'options'] });
      names.add(o.name);
    }
    if ((p.type === 'date' || p.type === 'text') && (p.options?.length ?? 0) > 0) {
      issues.push({
        message: `Property ${p.name} is a ${p.type} property: options apply only to singleSelect properties.`,
        path: ['schema', 'properties', i, 'options'],
      });
    }
  });
  if (issues.length > 0) throw validationFailed(issues);

  const taken = new Set<string>([TITLE_KEY, ...explicit]);
  const unmatched = [...(previous?.properties ?? [])].filter((p) => !explicit.has(p.key));
  const properties = input.properties.map((p): SchemaProperty => {
    let key = p.key;
    let id = previous?.properties.find((q) => q.key === key)?.id;
    if (key === undefined) {
      const same = unmatched.findIndex((q) => q.name === p.name && !taken.has(q.key));
      if (same >= 0) {
        key = unmatched[same]!.key;
        id = unmatched[same]!.id;
        unmatched.splice(same, 1);
      } else {
        key = uniqueKey(keyFromName(p.name), taken);
      }
      taken.add(key);
    }
    const type = p.type === 'select' ? 'singleSelect' : p.type;
    const out: SchemaProperty = { id: id ?? newId(), key, name: p.name, type };
    if (isSelect(type) || (p.options?.length ?? 0) > 0) {
      out.options = (p.options ?? []).map((o, i) => ({ name: o.name, color: o.color ?? OPTION_COLORS[i % OPTION_COLORS.length]! }));
    }
    return out;
  });
  return { name: input.name, contentPropDetails: { key: previous?.contentPropDetails.key ?? TITLE_KEY, name: input.contentPropDetails.name }, properties };
}

/** The write form, as create and update results give it (no internal ids). */
export function schemaWriteForm(s: StoredSchema): Record<string, unknown> {
  return {
    name: s.name,
    contentPropDetails: { key: s.contentPropDetails.key, name: s.contentPropDetails.name },
    properties: s.properties.map((p) => ({ key: p.key, name: p.name, type: p.type, ...(p.options ? { options: p.options.map((o) => ({ ...o })) } : {}) })),
  };
}

/** `format=schema`: select properties as type `select` with option names. */
export function schemaReadForm(s: StoredSchema): Record<string, unknown> {
  const entries = () =>
    s.properties.map((p) => ({
      key: p.key,
      name: p.name,
      type: isSelect(p.type) ? 'select' : p.type,
      options: (p.options ?? []).map((o) => o.name),
    }));
  return {
    key: keyFromName(s.name),
    name: s.name,
    contentPropDetails: { key: s.contentPropDetails.key, name: s.contentPropDetails.name },
    properties: entries(),
    propertyDetails: entries(),
  };
}

function valueSchema(p: SchemaProperty): Record<string, unknown> {
  if (isSelect(p.type)) return { type: 'string', title: p.name, enum: (p.options ?? []).map((o) => o.name) };
  if (p.type === 'date') return { type: 'string', title: p.name, format: 'date' };
  if (p.type === 'text') return { type: 'string', title: p.name };
  return { title: p.name };
}

/** `format=json-schema-items` (the default): the JSON Schema of the item add/update payload. */
export function itemsJsonSchema(s: StoredSchema): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', title: s.contentPropDetails.name },
            properties: { type: 'object', properties: Object.fromEntries(s.properties.map((p) => [p.key, valueSchema(p)])) },
          },
          required: ['title'],
        },
      },
    },
    required: ['items'],
    additionalProperties: false,
  };
}

export function findProperty(s: StoredSchema, key: string): SchemaProperty | undefined {
  return s.properties.find((p) => p.key === key);
}

/** The id views show for a property: its internal id, else its key. */
export function propertyId(p: SchemaProperty): string {
  return p.id ?? p.key;
}

/** A select value not among the options: refused, or added with the next color. */
export function addOption(p: SchemaProperty, name: string): void {
  const options = p.options ?? (p.options = []);
  options.push({ name, color: OPTION_COLORS[options.length % OPTION_COLORS.length]! });
}
