// Stored collection views: configuration only (filters, sorts, groups, fields, calculations,
// kanban or gallery settings); a view never runs them and never returns items. Input names a
// column by its property key; stored and read views carry {propertyId, propertyKey, propertyName}.
import { z } from 'zod';
import type { PropertyRef } from '../../wire/types.js';
import { validationFailed } from '../http/apiError.js';
import { findProperty, propertyId, TITLE_KEY, type StoredSchema } from './collectionSchema.js';

export type { PropertyRef };

export interface StoredView {
  id: string;
  name: string;
  type: 'table' | 'gallery' | 'kanban';
  filters: Array<PropertyRef & { filterType: string; filterValue: unknown[] }>;
  sortBy: Array<PropertyRef & { ascending: boolean }>;
  groupBy: Array<PropertyRef & { ascending: boolean }>;
  hiddenProperties: PropertyRef[];
  customPropertyOrder: PropertyRef[];
  columnWidth: Record<string, string>;
  calculations: Record<string, PropertyRef & { type: string }>;
  isCalculationsRowVisible: boolean;
  kanban?: { columnOrder: string[]; hiddenGroupValues: string[]; showsColumnColors: boolean; visibleFields: PropertyRef[] };
  gallery?: { cardSize: string; previewType: string; visibleFields: PropertyRef[] };
}

/** The view a new collection starts with. */
export const DEFAULT_VIEW: Omit<StoredView, 'id'> = {
  name: 'Table',
  type: 'table',
  filters: [],
  sortBy: [],
  groupBy: [],
  hiddenProperties: [],
  customPropertyOrder: [],
  columnWidth: {},
  calculations: {},
  isCalculationsRowVisible: false,
};

const KANBAN_DEFAULTS = { columnOrder: [], hiddenGroupValues: [], showsColumnColors: true, visibleFields: [] };
const GALLERY_DEFAULTS = { cardSize: 'medium', previewType: 'fit', visibleFields: [] };

const key = z.string().min(1);
const rule = z.object({ property: key, ascending: z.boolean().optional() });
export const viewInput = z.object({
  name: z.string().min(1, 'A view name cannot be empty.').optional(),
  type: z.enum(['table', 'gallery', 'kanban'], { message: "'type' must be table, gallery or kanban." }).optional(),
  filters: z.array(z.object({ property: key, filterType: z.string().min(1), filterValue: z.array(z.unknown()) })).optional(),
  sortBy: z.array(rule).optional(),
  groupBy: z.array(rule).optional(),
  fields: z
    .object({
      order: z.array(key).optional(),
      hidden: z.array(key).optional(),
      widths: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).optional(),
    })
    .optional(),
  calculations: z.record(z.string(), z.string().min(1)).optional(),
  isCalculationsRowVisible: z.boolean().optional(),
  kanban: z
    .object({
      columnOrder: z.array(z.string()).optional(),
      hiddenGroupValues: z.array(z.string()).optional(),
      showsColumnColors: z.boolean().optional(),
      visibleFields: z.array(key).optional(),
    })
    .optional(),
  gallery: z.object({ cardSize: z.string().min(1).optional(), previewType: z.string().min(1).optional(), visibleFields: z.array(key).optional() }).optional(),
});
export type ViewInput = z.infer<typeof viewInput>;

type Issues = Array<{ message: string; path: Array<string | number> }>;

/** A property reference by key against the current schema (`title` is the title property); undefined when unknown. */
function refOf(schema: StoredSchema, k: string): PropertyRef | undefined {
  if (k === TITLE_KEY || k === schema.contentPropDetails.key)
    return { propertyId: TITLE_KEY, propertyKey: TITLE_KEY, propertyName: schema.contentPropDetails.name };
  const p = findProperty(schema, k);
  return p ? { propertyId: propertyId(p), propertyKey: p.key, propertyName: p.name } : undefined;
}

function resolver(schema: StoredSchema, issues: Issues) {
  return (k: string, path: Array<string | number>): PropertyRef => {
    const r = refOf(schema, k);
    if (r) return r;
    const known = [TITLE_KEY, ...schema.properties.map((p) => p.key)];
    issues.push({ message: `Unknown property '${k}': use one of ${known.join(', ')}.`, path });
    return { propertyId: k, propertyKey: k, propertyName: k };
  };
}

/** A new view (`POST .../views`), or `current` with the settings sent changed (`PUT .../views/{id}`). */
export function applyViewInput(schema: StoredSchema, input: ViewInput, current: StoredView, isNew: boolean): StoredView {
  const issues: Issues = [];
  const ref = resolver(schema, issues);
  if (isNew && input.name === undefined) issues.push({ message: 'A new view needs a name.', path: ['view', 'name'] });
  const v: StoredView = structuredClone(current);
  if (input.name !== undefined) v.name = input.name;
  if (input.type !== undefined) v.type = input.type;
  if (input.filters)
    v.filters = input.filters.map((f, i) => ({ ...ref(f.property, ['view', 'filters', i, 'property']), filterType: f.filterType, filterValue: f.filterValue }));
  if (input.sortBy) v.sortBy = input.sortBy.map((s, i) => ({ ...ref(s.property, ['view', 'sortBy', i, 'property']), ascending: s.ascending ?? true }));
  if (input.groupBy) v.groupBy = input.groupBy.map((g, i) => ({ ...ref(g.property, ['view', 'groupBy', i, 'property']), ascending: g.ascending ?? true }));
  if (input.fields?.order) v.customPropertyOrder = input.fields.order.map((k, i) => ref(k, ['view', 'fields', 'order', i]));
  if (input.fields?.hidden) v.hiddenProperties = input.fields.hidden.map((k, i) => ref(k, ['view', 'fields', 'hidden', i]));
  if (input.fields?.widths) {
    for (const k of Object.keys(input.fields.widths)) ref(k, ['view', 'fields', 'widths', k]);
    v.columnWidth = { ...input.fields.widths };
  }
  if (input.calculations) {
    v.calculations = {};
    for (const [k, type] of Object.entries(input.calculations)) {
      const r = ref(k, ['view', 'calculations', k]);
      v.calculations[r.propertyId] = { ...r, type };
    }
  }
  if (input.isCalculationsRowVisible !== undefined) v.isCalculationsRowVisible = input.isCalculationsRowVisible;

  if (input.kanban && v.type !== 'kanban')
    issues.push({ message: `'kanban' settings apply only to kanban views; this view is a ${v.type} view.`, path: ['view', 'kanban'] });
  if (input.gallery && v.type !== 'gallery')
    issues.push({ message: `'gallery' settings apply only to gallery views; this view is a ${v.type} view.`, path: ['view', 'gallery'] });
  if (v.type === 'kanban') {
    const k = { ...KANBAN_DEFAULTS, ...(v.kanban ?? {}) };
    if (input.kanban?.columnOrder) k.columnOrder = input.kanban.columnOrder;
    if (input.kanban?.hiddenGroupValues) k.hiddenGroupValues = input.kanban.hiddenGroupValues;
    if (input.kanban?.showsColumnColors !== undefined) k.showsColumnColors = input.kanban.showsColumnColors;
    if (input.kanban?.visibleFields) k.visibleFields = input.kanban.visibleFields.map((f, i) => ref(f, ['view', 'kanban', 'visibleFields', i]));
    v.kanban = k;
    if (v.groupBy.length !== 1) {
      issues.push({
        message: `A kanban view needs exactly one groupBy rule (it has ${v.groupBy.length}): name the column to group by, e.g. "groupBy": [{"property": "status"}].`,
        path: ['view', 'groupBy'],
      });
    }
  } else {
    delete v.kanban;
  }
  if (v.type === 'gallery') {
    const g = { ...GALLERY_DEFAULTS, ...(v.gallery ?? {}) };
    if (input.gallery?.cardSize) g.cardSize = input.gallery.cardSize;
    if (input.gallery?.previewType) g.previewType = input.gallery.previewType;
    if (input.gallery?.visibleFields) g.visibleFields = input.gallery.visibleFields.map((f, i) => ref(f, ['view', 'gallery', 'visibleFields', i]));
    v.gallery = g;
  } else {
    delete v.gallery;
  }
  if (issues.length > 0) throw validationFailed(issues);
  return v;
}

/** A stored view read tolerantly (fixtures give refs by `propertyKey` only), refs refreshed from the schema. */
export function viewJson(schema: StoredSchema, stored: Record<string, unknown>, isActive: boolean): StoredView & { isActive: boolean } {
  const keyOf = (r: unknown): string | undefined =>
    typeof r === 'string' ? r : ((r as { propertyKey?: string; property?: string } | null)?.propertyKey ?? (r as { property?: string } | null)?.property);
  const refs = (list: unknown) =>
    (Array.isArray(list) ? list : []).flatMap((r) => {
      const k = keyOf(r);
      const ref = k === undefined ? undefined : refOf(schema, k);
      return ref ? [{ item: r as Record<string, unknown>, ref }] : [];
    });
  const type = (['table', 'gallery', 'kanban'] as const).find((t) => t === stored.type) ?? 'table';
  const calculations: StoredView['calculations'] = {};
  for (const [k, c] of Object.entries((stored.calculations ?? {}) as Record<string, { propertyKey?: string; type?: string } | string>)) {
    const ref = refOf(schema, typeof c === 'string' ? k : (c.propertyKey ?? k));
    if (ref) calculations[ref.propertyId] = { ...ref, type: typeof c === 'string' ? c : String(c.type ?? '') };
  }
  const out: StoredView & { isActive: boolean } = {
    id: String(stored.id),
    name: String(stored.name ?? ''),
    type,
    filters: refs(stored.filters).map(({ item, ref }) => ({
      ...ref,
      filterType: String(item.filterType ?? ''),
      filterValue: Array.isArray(item.filterValue) ? item.filterValue : [],
    })),
    sortBy: refs(stored.sortBy).map(({ item, ref }) => ({ ...ref, ascending: item.ascending !== false })),
    groupBy: refs(stored.groupBy).map(({ item, ref }) => ({ ...ref, ascending: item.ascending !== false })),
    hiddenProperties: refs(stored.hiddenProperties).map(({ ref }) => ref),
    customPropertyOrder: refs(stored.customPropertyOrder).map(({ ref }) => ref),
    columnWidth: { ...((stored.columnWidth ?? {}) as Record<string, string>) },
    calculations,
    isCalculationsRowVisible: stored.isCalculationsRowVisible === true,
    isActive,
  };
  if (type === 'kanban') {
    const k = { ...KANBAN_DEFAULTS, ...((stored.kanban ?? {}) as Partial<StoredView['kanban']>) };
    out.kanban = {
      columnOrder: k.columnOrder,
      hiddenGroupValues: k.hiddenGroupValues,
      showsColumnColors: k.showsColumnColors,
      visibleFields: refs(k.visibleFields).map(({ ref }) => ref),
    };
  }
  if (type === 'gallery') {
    const g = { ...GALLERY_DEFAULTS, ...((stored.gallery ?? {}) as Partial<StoredView['gallery']>) };
    out.gallery = { cardSize: g.cardSize, previewType: g.previewType, visibleFields: refs(g.visibleFields).map(({ ref }) => ref) };
  }
  // isActive last, as a flag of the read.
  const { isActive: active, ...rest } = out;
  return { ...rest, isActive: active };
}
