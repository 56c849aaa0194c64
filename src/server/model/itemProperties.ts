// Property values of collection items checked against the schema: select values must be options
// (or are added with allowNewSelectOptions), dates are calendar days, text is a string; other
// property types keep whatever JSON they are sent. `null` clears a value.
import { validationFailed } from '../http/apiError.js';
import { resolveDate } from '../dates.js';
import { addOption, findProperty, isSelect, type SchemaProperty, type StoredSchema } from './collectionSchema.js';

export interface PropertyIssue {
  message: string;
  path: Array<string | number>;
}

export interface CheckedProperties {
  values: Record<string, unknown>;
  /** Options added to the schema (only with allowNewSelectOptions). */
  addedOptions: boolean;
}

/**
 * `current` merged with `input`, each value checked; issues are collected into `issues` (the
 * caller throws once for the whole request). `schema` gains the new options it is allowed to.
 */
export function checkItemProperties(
  schema: StoredSchema,
  current: Record<string, unknown>,
  input: Record<string, unknown>,
  opts: { allowNewSelectOptions: boolean; now: number; timezone: string; path: Array<string | number> },
  issues: PropertyIssue[],
): CheckedProperties {
  const values: Record<string, unknown> = { ...current };
  let addedOptions = false;
  for (const [key, value] of Object.entries(input)) {
    const path = [...opts.path, key];
    const p = findProperty(schema, key);
    if (!p) {
      const known = schema.properties.map((q) => q.key);
      issues.push({ message: `Unknown property '${key}': the collection's property keys are ${known.length ? known.join(', ') : '(none)'}.`, path });
      continue;
    }
    if (value === null) {
      delete values[key];
      continue;
    }
    const checked = checkValue(p, value, opts, path, issues);
    if (checked === undefined) continue;
    if (checked.added) addedOptions = true;
    values[key] = checked.value;
  }
  return { values, addedOptions };
}

function checkValue(
  p: SchemaProperty,
  value: unknown,
  opts: { allowNewSelectOptions: boolean; now: number; timezone: string },
  path: Array<string | number>,
  issues: PropertyIssue[],
): { value: unknown; added: boolean } | undefined {
  if (isSelect(p.type)) {
    if (typeof value !== 'string' || value === '') {
      issues.push({ message: `${p.name} is a select property: its value is the name of one option.`, path });
      return undefined;
    }
    if ((p.options ?? []).some((o) => o.name === value)) return { value, added: false };
    if (!opts.allowNewSelectOptions) {
      const names = (p.options ?? []).map((o) => o.name);
      issues.push({
        message: `'${value}' is not an option of ${p.name} (options: ${names.length ? names.join(', ') : 'none'}): use one of them, or send allowNewSelectOptions: true to add it.`,
        path,
      });
      return undefined;
    }
    addOption(p, value);
    return { value, added: true };
  }
  if (p.type === 'date') {
    const day = typeof value === 'string' ? resolveDate(value, opts.now, opts.timezone) : undefined;
    if (day === undefined) {
      issues.push({ message: `${p.name} is a date property: its value must be YYYY-MM-DD, today, tomorrow or yesterday.`, path });
      return undefined;
    }
    return { value: day, added: false };
  }
  if (p.type === 'text') {
    if (typeof value !== 'string') {
      issues.push({ message: `${p.name} is a text property: its value must be a string.`, path });
      return undefined;
    }
    return { value, added: false };
  }
  return { value, added: false };
}

/** The values that stay valid under a replaced schema (dropped properties, options and types lose theirs). */
export function keepValidValues(schema: StoredSchema, current: Record<string, unknown>, now: number, timezone: string): Record<string, unknown> {
  const issues: PropertyIssue[] = [];
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current)) {
    const p = findProperty(schema, key);
    if (!p) continue;
    const checked = checkValue(p, value, { allowNewSelectOptions: false, now, timezone }, [key], issues);
    if (checked !== undefined) kept[key] = checked.value;
  }
  return kept;
}

export function throwIssues(issues: PropertyIssue[]): void {
  if (issues.length > 0) throw validationFailed(issues);
}
