// What a collection's edited table asks of the service: the decision of the collection push,
// pure. Rows are tied to items by the ids the journal recorded for the base table (or, without
// them, by aligning the base table with the space's), local rows to base rows by alignRows.
// Per row and cell, three-way: a cell changed only in the file is sent (only the changed
// properties), changed only in the space stays, changed on both sides to different values keeps
// the space's (reported). A row new in the file is created, a row gone from the file is deleted
// unless the space changed it (an edit beats a delete), a row the file changed but the space
// deleted is created again, a row the space has gained equal to one new in the file is not sent. The header (the schema) is read-only, and so is the items' content.
import { cellValue, TITLE_COLUMN, type CollectionTable } from '../../dialect/index.js';
import { matchSequences } from '../merge/sequenceMatch.js';

export interface PropertyType {
  type: string;
  /** Option names of a select or multi-select property. */
  options?: readonly string[];
}

export interface CollectionPushInput {
  /** The collection's name, for messages. */
  name: string;
  base: CollectionTable;
  /** The item id of each base row, as the journal recorded them with the base; undefined when it has none for this base. */
  baseIds?: readonly string[];
  local: CollectionTable;
  /** The space's table now and the id of each of its rows. */
  remote: { table: CollectionTable; ids: readonly string[] };
  /** Property key → its type (the schema). */
  types: ReadonlyMap<string, PropertyType>;
}

export interface ItemUpdate {
  id: string;
  title?: string;
  properties: Record<string, unknown>;
}

export interface ItemCreate {
  title: string;
  properties: Record<string, unknown>;
}

export type CollectionPush =
  /** Nothing is sent. `restore`: the file's table is written over with the space's (its version kept). */
  | { kind: 'refused'; message: string; restore: boolean }
  | {
      kind: 'send';
      update: ItemUpdate[];
      create: ItemCreate[];
      remove: string[];
      /** A select value that is not an option yet: the request adds it (allowNewSelectOptions). */
      allowNewSelectOptions: boolean;
      /** New options, for the report: `Status: Paused`. */
      newOptions: string[];
      /** Cells not sent (the file keeps them), each with what to do. */
      held: string[];
      /** Cells changed on both sides to different values: the space's value is kept. */
      conflicts: string[];
    };

const SELECT = new Set(['select', 'singleSelect']);
const MULTI = new Set(['multiSelect', 'multi_select', 'multiselect']);

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

type Send = Extract<CollectionPush, { kind: 'send' }>;
/** What the decisions of one push share: the schema, the collection's name, the push so far. */
interface PushState {
  keys: readonly string[];
  types: ReadonlyMap<string, PropertyType>;
  what: string;
  out: Send;
}

export function planCollectionPush(input: CollectionPushInput): CollectionPush {
  const { base, local, remote, types, name } = input;
  const what = `collection "${name}"`;
  if (!sameKeys(base.keys, local.keys)) {
    return {
      kind: 'refused',
      restore: true,
      message: `the header of the ${what} changed (${[TITLE_COLUMN, ...local.keys].join(', ')} instead of ${[TITLE_COLUMN, ...base.keys].join(', ')}); the columns are the collection's schema, which is changed in the app. Nothing was sent; the table is restored from the space (your version is in the history: spacesync history <file>)`,
    };
  }
  if (base.rest !== local.rest) {
    return {
      kind: 'refused',
      restore: false,
      message: `the items' content after the table of the ${what} changed; it is read-only in the file. Nothing was sent; undo that change, or edit the item's page in the app`,
    };
  }
  // Base row → item id.
  let ids: Array<string | undefined>;
  if (input.baseIds && input.baseIds.length === base.rows.length) ids = [...input.baseIds];
  else ids = alignRows(base.rows, remote.table.rows).map((j) => (j === undefined ? undefined : remote.ids[j]));
  const remoteRow = new Map<string, readonly string[]>(remote.ids.map((id, j) => [id, remote.table.rows[j]!]));
  const toLocal = alignRows(base.rows, local.rows);
  const out: Send = { kind: 'send', update: [], create: [], remove: [], allowNewSelectOptions: false, newOptions: [], held: [], conflicts: [] };
  const s: PushState = { keys: base.keys, types, what, out };
  base.rows.forEach((b, i) => {
    const id = ids[i];
    const j = toLocal[i];
    const r = id === undefined ? undefined : remoteRow.get(id);
    // Gone from the file: deleted unless the space changed it meanwhile (an edit beats a delete).
    if (j === undefined) {
      if (id !== undefined && r !== undefined && r.every((cell, c) => cell === b[c])) out.remove.push(id);
    } else if (r === undefined) {
      // The space deleted it, the file changed it: the edit wins, the row is created again.
      if (local.rows[j]!.some((cell, c) => cell !== b[c])) createFrom(s, local.rows[j]!);
    } else updateRow(s, id!, b, local.rows[j]!, r);
  });
  // A row new in the file that the space already has, new there too (the same row added on both
  // sides, or a creation a stopped run sent but did not record), is not created twice.
  const paired = new Set(toLocal.filter((j): j is number => j !== undefined));
  const known = new Set(ids.filter((x): x is string => x !== undefined));
  const fresh = remote.ids.flatMap((id, k) => (known.has(id) ? [] : [JSON.stringify(remote.table.rows[k])]));
  local.rows.forEach((l, j) => {
    if (paired.has(j)) return;
    const same = fresh.indexOf(JSON.stringify(l));
    if (same >= 0) fresh.splice(same, 1);
    else createFrom(s, l);
  });
  return out;
}

// Three-way per cell: a cell changed only in the file is sent (only the changed properties),
// changed on both sides to different values keeps the space's (reported).
function updateRow(s: PushState, id: string, b: readonly string[], l: readonly string[], r: readonly string[]): void {
  const update: ItemUpdate = { id, properties: {} };
  l.forEach((cell, c) => {
    if (cell === b[c] || r[c] === cell) return;
    const column = c === 0 ? TITLE_COLUMN : s.keys[c - 1]!;
    if (r[c] !== b[c]) {
      s.out.conflicts.push(
        `${rowName(l)}, column ${column} of the ${s.what} changed in the file and in the space: the space's "${r[c]}" is kept, the file's "${cell}" is in the history (spacesync history <file>)`,
      );
      return;
    }
    const v = valueOf(s, l, c);
    if (!v) return;
    if (c === 0) update.title = v.value as string;
    else update.properties[column] = v.value;
  });
  if (update.title !== undefined || Object.keys(update.properties).length > 0) s.out.update.push(update);
}

// A row new in the file, or one the space deleted that the file changed: created with its title
// and its cells that are not empty.
function createFrom(s: PushState, row: readonly string[]): void {
  const title = valueOf(s, row, 0);
  if (!title) return;
  const properties: Record<string, unknown> = {};
  s.keys.forEach((k, i) => {
    if (row[i + 1] === '') return;
    const v = valueOf(s, row, i + 1);
    if (v && v.value !== null) properties[k] = v.value;
  });
  s.out.create.push({ title: title.value as string, properties });
}

/** The value to send for column c (0: the title) of `row`, or undefined when it cannot be sent (held, with why). */
function valueOf(s: PushState, row: readonly string[], c: number): { value: unknown } | undefined {
  if (c === 0) {
    const v = cellValue(row[0]!, undefined, TITLE_COLUMN);
    return 'value' in v ? { value: v.value ?? '' } : undefined;
  }
  const key = s.keys[c - 1]!;
  const t = s.types.get(key);
  if (!t) {
    s.out.held.push(
      `${rowName(row)}, column ${key} of the ${s.what}: ${key} is not a property of the collection's schema, so its cells are not sent. Change it in the app`,
    );
    return undefined;
  }
  const v = cellValue(row[c]!, t.type, key);
  if ('problem' in v) {
    s.out.held.push(`${rowName(row)}, column ${key} of the ${s.what}: ${v.problem}. The file keeps the cell until it is fixed`);
    return undefined;
  }
  // A select value that is not an option yet is sent with allowNewSelectOptions, and reported.
  const fresh = (o: unknown) => typeof o === 'string' && t.options !== undefined && !t.options.includes(o);
  const added = SELECT.has(t.type) ? [v.value].filter(fresh) : MULTI.has(t.type) && Array.isArray(v.value) ? v.value.filter(fresh) : [];
  for (const o of added as string[]) {
    s.out.allowNewSelectOptions = true;
    const note = `${key}: ${o}`;
    if (!s.out.newOptions.includes(note)) s.out.newOptions.push(note);
  }
  return v;
}

const rowName = (row: readonly string[]) => `row "${row[0] || '(no title)'}"`;

// Which row of one table is which row of another, with no ids in the rows: rows equal in every
// cell are matched as a longest common subsequence (matchSequences), then, between two matches,
// the rows left on both sides are paired in order when they share a non-empty cell (an edited row
// keeps its title or another value). What stays unpaired was removed (first table) or added (second).

/** For each row of `a`, the index of its row in `b`, or undefined when it has none. */
export function alignRows(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): Array<number | undefined> {
  const codes = new Map<string, number>();
  const code = (row: readonly string[]) => {
    const k = JSON.stringify(row);
    let c = codes.get(k);
    if (c === undefined) codes.set(k, (c = codes.size));
    return c;
  };
  const { pairs } = matchSequences(a.map(code), b.map(code));
  const out: Array<number | undefined> = new Array<number | undefined>(a.length).fill(undefined);
  for (const [i, j] of pairs) out[i] = j;
  const shared = (x: readonly string[], y: readonly string[]) => x.filter((c, k) => c !== '' && c === y[k]).length;
  // The gaps between matches (and before the first, after the last).
  const bounds: Array<[number, number]> = [[-1, -1], ...pairs, [a.length, b.length]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [a0, b0] = bounds[g]!;
    const [a1, b1] = bounds[g + 1]!;
    let next = b0 + 1;
    for (let i = a0 + 1; i < a1; i++) {
      let best: number | undefined;
      let bestScore = 0;
      for (let j = next; j < b1; j++) {
        const s = shared(a[i]!, b[j]!);
        if (s > bestScore) {
          best = j;
          bestScore = s;
        }
      }
      if (best !== undefined) {
        out[i] = best;
        next = best + 1;
      }
    }
  }
  return out;
}
