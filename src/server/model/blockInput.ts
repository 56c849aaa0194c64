// Block input (POST /blocks, PUT /blocks, fixtures) → stored fields, through the dialect: the
// markdown is split and normalised as the service does, explicit fields are checked and layered
// on top, signed media URLs go back to the asset they point at.
import { z } from 'zod';
import {
  BLOCK_TYPES,
  CODE_LANGUAGES,
  isPageLike,
  traitsOf,
  typesWhere,
  parseBlockMarkdown,
  renderBlockMarkdown,
  splitMarkdown,
  type BlockType,
  type ParsedBlock,
  type ParsedBlockNode,
  type TaskInfo,
} from '../../dialect/index.js';
import { badRequest, validationFailed } from '../http/apiError.js';
import { resolveDate } from '../dates.js';
import { isoTime } from '../dates.js';
import { withoutDefaults, parseData, type BlockData } from './blockData.js';
import { FIXTURE_URLS, type StoredUrls } from './mediaUrls.js';
import { isSpacesyncError } from '../../errors.js';

const dateInput = z.string().min(1);

/** C0 control characters a note's text never holds (tab, line feed and carriage return aside). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** Block text (markdown, a title): a string without NUL or other C0 control characters; the issue's path names the field. */
export const blockText = z.string().superRefine((s, ctx) => {
  const m = CONTROL.exec(s);
  if (m) {
    const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    ctx.addIssue({
      code: 'custom',
      message: `Block text must not hold NUL or other control characters (U+0000 to U+001F except tab, line feed and carriage return): found ${code} at character ${m.index}.`,
    });
  }
});

/** The fields a client may send on a block, each checked against the spec's value sets. */
const fieldShape = {
  textStyle: z.enum(['card', 'page', 'h1', 'h2', 'h3', 'h4', 'caption', 'body']),
  listStyle: z.enum(['none', 'bullet', 'numbered', 'toggle', 'task']),
  indentationLevel: z.number().int().min(0, 'indentationLevel must be from 0 to 5').max(5, 'indentationLevel must be from 0 to 5'),
  textAlignment: z.enum(['left', 'center', 'right', 'justify']),
  font: z.enum(['system', 'serif', 'rounded', 'mono']),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must look like #RRGGBB'),
  decorations: z.array(z.enum(['callout', 'quote'])),
  taskInfo: z.object({
    state: z.enum(['todo', 'done', 'canceled']).optional(),
    scheduleDate: dateInput.nullable().optional(),
    deadlineDate: dateInput.nullable().optional(),
  }),
  cardLayout: z.enum(['small', 'square', 'regular', 'large']),
  lineStyle: z.enum(['strong', 'regular', 'light', 'extraLight', 'pageBreak']),
  language: z.enum(CODE_LANGUAGES),
  rawCode: z.string(),
  url: z.string(),
  altText: z.string(),
  fileName: z.string(),
  title: blockText,
  description: z.string(),
  preview: z.enum(['fit', 'fill']),
  width: z.enum(['auto', 'fullWidth']),
  size: z.enum(['small', 'regular', 'card']),
  properties: z.record(z.string(), z.unknown()),
};
type FieldKey = keyof typeof fieldShape;
const FIELD_KEYS = Object.keys(fieldShape) as FieldKey[];
const fields = z.object(Object.fromEntries(FIELD_KEYS.map((k) => [k, fieldShape[k].optional()])) as { [K in FieldKey]: z.ZodOptional<(typeof fieldShape)[K]> });

export type BlockFieldsInput = z.infer<typeof fields>;
export type NewBlockInput = BlockFieldsInput & { type?: BlockType; markdown?: string; content?: NewBlockInput[] };

export const newBlockSchema: z.ZodType<NewBlockInput> = z.lazy(() =>
  fields.extend({ type: z.enum(BLOCK_TYPES).optional(), markdown: blockText.optional(), content: z.array(newBlockSchema).optional() }),
);

export const updateBlockSchema = fields.extend({ id: z.string().min(1), type: z.enum(BLOCK_TYPES).optional(), markdown: blockText.optional() });
export type UpdateBlockInput = z.infer<typeof updateBlockSchema>;

/** A block ready to be stored, with its children. */
export interface PreparedBlock {
  type: BlockType;
  data: BlockData;
  children: PreparedBlock[];
}

/** Fields markdown carries; a new markdown replaces them. The rest (font, color, dates…) stay. */
const MARKDOWN_BORNE = [
  'body',
  'textStyle',
  'listStyle',
  'indentationLevel',
  'decorations',
  'lineStyle',
  'language',
  'rawCode',
  'url',
  'altText',
  'fileName',
  'title',
] as const;
/** Types whose markdown the dialect cannot read back into the same type: their markdown is derived only. */
const DERIVED_MARKDOWN = typesWhere((t) => t.derivedMarkdown);

export function pageLike(type: string, data: Pick<BlockData, 'textStyle'>): boolean {
  return isPageLike({ type: type as BlockType, textStyle: data.textStyle });
}

/** The `markdown` of a stored block (media as `asset:<id>`). */
export function markdownOf(type: BlockType, data: BlockData, content?: ReadonlyArray<Record<string, unknown>>): string {
  return renderBlockMarkdown({ ...data, type, ...(content ? { content } : {}) } as Parameters<typeof renderBlockMarkdown>[0]);
}

function fromNode(n: ParsedBlockNode, urls: StoredUrls): PreparedBlock {
  const { type, children, ...rest } = n;
  const data: BlockData = { ...(rest as Omit<ParsedBlock, 'type'>) } as BlockData;
  if (pageLike(type, data)) delete data.title;
  if (data.url !== undefined) data.url = urls.stored(data.url);
  return { type, data: withoutDefaults(type, data), children: (children ?? []).map((c) => fromNode(c, urls)) };
}

/** `POST /blocks` with `markdown`: split and normalised into blocks (pages and cards nest). */
export function prepareMarkdown(markdown: string, urls: StoredUrls): PreparedBlock[] {
  return splitMarkdown(urls.unsign(markdown)).map((n) => fromNode(n, urls));
}

/**
 * A block item's markdown: split like any insert, except that one block's own read form is always
 * taken, even where an insert of that text would be refused (an empty nested list item, `"  - "`,
 * is not the first item of a list in the document it was read from).
 */
function prepareOwnMarkdown(markdown: string, urls: StoredUrls): PreparedBlock[] {
  try {
    return prepareMarkdown(markdown, urls);
  } catch (e) {
    if (!isSpacesyncError(e, 'dialect_input')) throw e;
    let one: ParsedBlock;
    try {
      one = parseBlockMarkdown(urls.unsign(markdown));
    } catch {
      throw e;
    }
    const { type, ...rest } = one;
    return [fromNode({ type, ...rest }, urls)];
  }
}

/** `POST /blocks` with `blocks`: each item's markdown split, its explicit fields layered on. */
export function prepareNewBlock(input: NewBlockInput, now: number, timezone: string, urls: StoredUrls): PreparedBlock[] {
  const type = input.type;
  const ownEndpoint = type !== undefined ? traitsOf(type)?.ownEndpoint : null;
  if (ownEndpoint) throw badRequest(`Blocks of type ${type} are created with ${ownEndpoint}, not POST /blocks.`);
  const children = (input.content ?? []).flatMap((c) => prepareNewBlock(c, now, timezone, urls));
  let out: PreparedBlock[];
  if (type === 'page' || ((type ?? 'text') === 'text' && (input.textStyle === 'card' || input.textStyle === 'page'))) {
    out = [{ type: type ?? 'text', data: { body: input.title ?? input.markdown ?? '' }, children: [] }];
  } else if (input.markdown !== undefined && !(type !== undefined && DERIVED_MARKDOWN.has(type))) {
    out = prepareOwnMarkdown(input.markdown, urls);
    if (out.length === 0) out = [{ type: 'text', data: { body: '' }, children: [] }];
    const first = out[0]!;
    if (type !== undefined && out.length === 1 && first.type !== type) {
      throw badRequest(`The markdown of a ${type} block reads as a ${first.type} block: send type ${first.type}, or markdown of a ${type} block.`);
    }
  } else {
    out = [{ type: type ?? 'text', data: type === 'code' ? { body: input.rawCode ?? '' } : { body: '' }, children: [] }];
  }
  for (const b of out) {
    b.data = withoutDefaults(b.type, layerFields(b.type, b.data, input, now, timezone, undefined, urls));
  }
  if (children.length > 0) {
    const last = out[out.length - 1]!;
    last.children.push(...children);
  }
  return out.map(asParent);
}

/** A text block that receives children becomes a page; other non-parents cannot have any. */
function asParent(b: PreparedBlock): PreparedBlock {
  if (b.children.length === 0 || pageLike(b.type, b.data) || b.type === 'collectionItem') return b;
  if (b.type === 'text') return { ...b, type: 'page', data: pageDataFromText(b.data) };
  throw badRequest(`A ${b.type} block cannot hold other blocks: only page, text and card blocks can be parents.`);
}

/** The fields a text block keeps when it becomes a page: its text as the title, its look. */
export function pageDataFromText(d: BlockData): BlockData {
  const out: BlockData = { body: d.body ?? '' };
  if (d.textStyle === 'card') out.textStyle = 'card';
  if (d.font) out.font = d.font;
  if (d.color) out.color = d.color;
  if (d.textAlignment) out.textAlignment = d.textAlignment;
  return out;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Layers explicitly sent fields over `data`. On an update (`old` given), a field equal to the
 * stored value is an echo of a read, not a change, so it cannot undo a new markdown.
 */
function layerFields(
  type: BlockType,
  data: BlockData,
  input: BlockFieldsInput,
  now: number,
  timezone: string,
  old: BlockData | undefined,
  urls: StoredUrls,
): BlockData {
  const out: BlockData = { ...data };
  const isPage = pageLike(type, out) || type === 'collectionItem';
  for (const k of FIELD_KEYS) {
    const v = input[k];
    if (v === undefined) continue;
    if (k === 'title' && isPage) {
      if (old === undefined || v !== (old.body ?? '')) out.body = v as string;
      continue;
    }
    if (k === 'url') {
      const url = urls.stored(v as string);
      if (old === undefined || url !== old.url) out.url = url;
      continue;
    }
    if (k === 'taskInfo') {
      out.taskInfo = mergeTaskInfo(out.taskInfo, old?.taskInfo, v as BlockFieldsInput['taskInfo'] & object, now, timezone);
      continue;
    }
    if (old !== undefined && sameValue(v, old[k as keyof BlockData])) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  if (out.taskInfo) out.taskInfo = stampTask(out.taskInfo, old?.taskInfo, now);
  return out;
}

function mergeTaskInfo(
  current: TaskInfo | undefined,
  old: TaskInfo | undefined,
  input: NonNullable<BlockFieldsInput['taskInfo']>,
  now: number,
  timezone: string,
): TaskInfo {
  const out: TaskInfo = { ...(current ?? { state: 'todo' }) };
  if (input.state !== undefined && (old === undefined || input.state !== old.state)) out.state = input.state;
  for (const k of ['scheduleDate', 'deadlineDate'] as const) {
    const v = input[k];
    if (v === undefined) continue;
    if (v === null) {
      delete out[k];
      continue;
    }
    const d = resolveDate(v, now, timezone);
    if (d === undefined) throw validationFailed([{ message: `taskInfo.${k} must be YYYY-MM-DD, today, tomorrow or yesterday.`, path: ['taskInfo', k] }]);
    out[k] = d;
  }
  return out;
}

/** `completedAt` / `canceledAt` appear when a task becomes done / canceled, and go when it leaves that state. */
function stampTask(t: TaskInfo, old: TaskInfo | undefined, now: number): TaskInfo {
  const out: TaskInfo = { state: t.state };
  if (t.scheduleDate) out.scheduleDate = t.scheduleDate;
  if (t.deadlineDate) out.deadlineDate = t.deadlineDate;
  if (t.state === 'done') out.completedAt = old?.state === 'done' && old.completedAt ? old.completedAt : (t.completedAt ?? isoTime(now));
  if (t.state === 'canceled') out.canceledAt = old?.state === 'canceled' && old.canceledAt ? old.canceledAt : (t.canceledAt ?? isoTime(now));
  return out;
}

/** A new block's stored task fields start from the parsed state (and its stamps). */
export function prepareTaskStamps(b: PreparedBlock, now: number): void {
  if (b.data.taskInfo) b.data.taskInfo = stampTask(b.data.taskInfo, undefined, now);
  for (const c of b.children) prepareTaskStamps(c, now);
}

/** A whiteboard read shows its board's address as `url` when it has no picture: sent back, it is no change. */
function withoutWhiteboardEcho(id: string, old: BlockData, input: UpdateBlockInput, urls: StoredUrls): UpdateBlockInput {
  const own = (url: string) => url === (old.url ?? '') || url.endsWith(`/whiteboards/${encodeURIComponent(id)}`);
  const out = { ...input };
  if (out.url !== undefined && own(urls.stored(out.url))) delete out.url;
  const picture = out.markdown === undefined ? null : /^\s*!\[[^\]]*\]\(([^)]*)\)\s*$/.exec(urls.unsign(out.markdown));
  if (picture && own(picture[1]!)) delete out.markdown;
  return out;
}

/** `PUT /blocks` of one block: only the fields sent change; the type never does. */
export function applyUpdate(
  row: { id: string; type: string; data: string; markdown: string },
  input: UpdateBlockInput,
  now: number,
  timezone: string,
  urls: StoredUrls,
): BlockData {
  const type = row.type as BlockType;
  const old = parseData(row.data);
  if (input.type !== undefined && input.type !== type) {
    throw badRequest(`Block ${row.id} is a ${type} block: a block's type cannot change (delete it and insert a new one).`);
  }
  let data: BlockData = { ...old };
  if (type === 'whiteboard') input = withoutWhiteboardEcho(row.id, old, input, urls);
  if (input.markdown !== undefined) {
    const md = urls.unsign(input.markdown);
    // A collection's markdown is output-only and depends on the depth it was read at: never an edit.
    if (md !== row.markdown && type !== 'collection') {
      if (pageLike(type, old) || type === 'collectionItem') {
        data.body = md;
      } else if (DERIVED_MARKDOWN.has(type)) {
        throw badRequest(`The markdown of ${type} block ${row.id} cannot be edited: change its fields instead.`);
      } else {
        const parsed = parseBlockMarkdown(md);
        if (parsed.type !== type) {
          throw badRequest(`The new markdown of block ${row.id} reads as a ${parsed.type} block, but it is a ${type} block: a block's type cannot change.`);
        }
        const kept: BlockData = { ...old };
        for (const k of MARKDOWN_BORNE) delete kept[k];
        const { type: _t, taskInfo, ...rest } = parsed;
        data = { ...kept, ...(rest as BlockData) };
        if (data.url !== undefined) data.url = urls.stored(data.url);
        if (taskInfo) data.taskInfo = { ...(old.taskInfo ?? {}), state: taskInfo.state };
        else delete data.taskInfo;
      }
    }
  }
  data = layerFields(type, data, input, now, timezone, old, urls);
  return withoutDefaults(type, data);
}

/** One fixture block, exactly as written: `body` taken as stored, else its markdown read as one block. */
export function prepareFixtureBlock(
  input: BlockFieldsInput & { type?: BlockType; markdown?: string; body?: string; id?: string },
  now: number,
  timezone: string,
): { type: BlockType; data: BlockData } {
  const where = input.id ? `block ${input.id}` : `block "${(input.markdown ?? input.body ?? '').slice(0, 40)}"`;
  let type: BlockType = input.type ?? 'text';
  let data: BlockData;
  if (!(BLOCK_TYPES as readonly string[]).includes(type)) {
    // A type the contract does not know (a service that added one): kept with its markdown, as sent.
    return { type, data: { ...unknownFields(input), body: input.body ?? input.markdown ?? '' } };
  }
  if (input.body !== undefined) {
    data = { body: input.body };
  } else if (pageLike(type, input) || type === 'collectionItem') {
    data = { body: input.title ?? input.markdown ?? '' };
  } else if (input.markdown !== undefined && !DERIVED_MARKDOWN.has(type)) {
    const parsed = parseBlockMarkdown(FIXTURE_URLS.unsign(input.markdown));
    if (input.type !== undefined && parsed.type !== input.type) {
      throw new Error(`Fixture ${where}: its markdown reads as a ${parsed.type} block, not ${input.type}.`);
    }
    type = parsed.type;
    const { type: _t, ...rest } = parsed;
    data = { ...(rest as BlockData) };
    if (data.url !== undefined) data.url = FIXTURE_URLS.stored(data.url);
  } else {
    data = { body: type === 'code' ? (input.rawCode ?? '') : '' };
  }
  const explicit: BlockFieldsInput = { ...input };
  if (pageLike(type, data) || type === 'collectionItem') delete explicit.title;
  const r = fields.safeParse(explicit);
  if (!r.success) throw new Error(`Fixture ${where}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  // Stored task stamps are kept as written.
  const stamps = input.taskInfo as TaskInfo | undefined;
  data = layerFields(type, data, r.data, now, timezone, undefined, FIXTURE_URLS);
  if (data.taskInfo && stamps) {
    if (stamps.completedAt) data.taskInfo.completedAt = stamps.completedAt;
    if (stamps.canceledAt) data.taskInfo.canceledAt = stamps.canceledAt;
  }
  if (pageLike(type, data)) delete data.title;
  return { type, data: withoutDefaults(type, { ...unknownFields(input), ...data }) };
}

/** What a fixture block holds besides the contract's fields and the fixture's own keys. */
const FIXTURE_KEYS = new Set<string>([
  ...FIELD_KEYS,
  'id',
  'type',
  'markdown',
  'body',
  'content',
  'createdAt',
  'lastModifiedAt',
  'createdBy',
  'lastModifiedBy',
  'comments',
  'collection',
  'whiteboard',
  'metadata',
]);

/**
 * Fields the contract does not name, kept and sent as they are: a fixture can stand for a service
 * that added fields (or block types), to test what clients make of them.
 */
function unknownFields(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !FIXTURE_KEYS.has(k)));
}
