// A document file's front matter: `id` always, `title` only when the file name cannot carry it,
// and whatever keys the user added, kept byte for byte (they are never sent).
import YAML, { isMap, isScalar, type Document, type Pair } from 'yaml';

export const FRONT_MATTER_KEYS = ['id', 'title'] as const;

export type ParsedFrontMatter =
  { ok: true; id?: string; title?: string; /** the user's own keys, parsed; never sent */ user: Record<string, unknown> } | { ok: false; problem: string };

/** The fields spacesync owns; `title: undefined` means the key must not be there. */
export interface FrontMatterFields {
  id: string;
  title?: string | undefined;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

/**
 * Reads the YAML between the `---` fences (undefined: the file has none). Broken YAML, a top level
 * that is not a mapping, or an `id`/`title` that is not a single value is a problem the user must fix.
 */
export function parseFrontMatter(yamlText: string | undefined, where = 'this file'): ParsedFrontMatter {
  if (yamlText === undefined || yamlText.trim() === '') return { ok: true, user: {} };
  // failsafe: every scalar is read as the exact string written (ids like 0012 stay 0012).
  const exact = YAML.parseDocument(yamlText, { schema: 'failsafe', prettyErrors: true });
  const error = exact.errors[0];
  if (error) {
    const line = error.linePos?.[0].line;
    return {
      ok: false,
      problem: `The front matter of ${where} is not valid YAML${line ? ` (line ${line} of the front matter)` : ''}: ${firstLine(error.message)}. Fix it; until then the file is not synced.`,
    };
  }
  if (exact.contents === null) return { ok: true, user: {} };
  if (!isMap(exact.contents)) {
    return { ok: false, problem: `The front matter of ${where} must be a list of "key: value" lines. Fix it; until then the file is not synced.` };
  }
  const out: { id?: string; title?: string } = {};
  for (const key of FRONT_MATTER_KEYS) {
    const node = exact.get(key, true);
    if (node === undefined) continue;
    if (!isScalar(node)) {
      return {
        ok: false,
        problem: `The front matter of ${where} has a "${key}" that is not a single value. Write it as "${key}: value"; until then the file is not synced.`,
      };
    }
    out[key] = node.value === null ? '' : String(node.value);
  }
  const user = YAML.parse(yamlText) as Record<string, unknown> | null;
  const userKeys: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(user ?? {})) if (!(FRONT_MATTER_KEYS as readonly string[]).includes(k)) userKeys[k] = v;
  return { ok: true, ...out, user: userKeys };
}

/** A one-line YAML scalar for a value, or undefined when it needs several lines. */
function scalarText(value: string): string | undefined {
  const text = YAML.stringify(value, { lineWidth: 0 }).replace(/\n$/, '');
  return text.includes('\n') ? undefined : text;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

/** Edits the source text in place so every byte the user wrote elsewhere stays; undefined when that is not safe. */
function textualUpdate(source: string, doc: Document, want: FrontMatterFields): string | undefined {
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const map = doc.contents;
  if (map !== null && (!isMap(map) || map.flow)) return undefined;
  const pairs = map ? (map.items as Pair[]) : [];
  const find = (key: string) => pairs.find((p) => isScalar(p.key) && p.key.value === key);
  const edits: Edit[] = [];
  let insertAt = map?.range ? lineStart(source, map.range[0]) : source.length;
  let prefix = source.length > 0 && !source.endsWith('\n') && map === null ? eol : '';

  const set = (key: 'id' | 'title', value: string): boolean => {
    const text = scalarText(value);
    if (text === undefined) return false;
    const pair = find(key);
    if (!pair) {
      edits.push({ from: insertAt, to: insertAt, text: `${prefix}${key}: ${text}${eol}` });
      prefix = '';
      return true;
    }
    const node = pair.value;
    if (!isScalar(node) || !node.range) return false;
    if (String(node.value ?? '') === value) return true;
    const [from, to] = node.range;
    edits.push({ from, to, text: from === to ? ` ${text}` : text });
    return true;
  };

  if (!set('id', want.id)) return undefined;
  const idPair = find('id');
  const idEnd = idPair && (idPair.value as { range?: [number, number, number] } | null)?.range;
  if (idEnd) insertAt = lineEnd(source, idEnd[2]);
  if (want.title !== undefined) {
    if (!set('title', want.title)) return undefined;
  } else {
    const pair = find('title');
    if (pair) {
      const keyRange = (pair.key as { range?: [number, number, number] }).range;
      const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
      if (!keyRange) return undefined;
      edits.push({ from: lineStart(source, keyRange[0]), to: lineEnd(source, (valueRange ?? keyRange)[2]), text: '' });
    }
  }
  let out = source;
  // From the end backwards; of two inserts at one offset the later one goes in first so it ends up second.
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.from - a.e.from || b.i - a.i);
  for (const { e } of order) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

/**
 * The front matter text with `id` and `title` as wanted and everything else the user wrote kept.
 * Unchanged fields give the input back byte for byte, so a file nobody touched is never rewritten.
 * Broken YAML is never overwritten: the problem comes back and the user's text stays as it is.
 */
export function updateFrontMatter(
  yamlText: string | undefined,
  want: FrontMatterFields,
  where?: string,
): { ok: true; text: string } | { ok: false; problem: string } {
  const source = yamlText ?? '';
  const current = parseFrontMatter(source, where);
  if (!current.ok) return current;
  if (current.id === want.id && current.title === want.title) return { ok: true, text: source };

  const doc = YAML.parseDocument(source);
  const edited = textualUpdate(source, doc, want);
  if (edited !== undefined) {
    const back = parseFrontMatter(edited);
    if (back.ok && back.id === want.id && back.title === want.title && JSON.stringify(back.user) === JSON.stringify(current.user)) {
      return { ok: true, text: edited };
    }
  }
  // The Document API keeps keys and comments but may reformat the rest: only when a textual edit is not safe.
  if (doc.contents === null || !isMap(doc.contents)) (doc as Document).contents = doc.createNode({});
  doc.set('id', want.id);
  if (want.title === undefined) doc.delete('title');
  else doc.set('title', want.title);
  return { ok: true, text: doc.toString({ lineWidth: 0 }) };
}

/** The whole front-matter block of a file, fences included. */
export function frontMatterBlock(yamlText: string): string {
  const eol = yamlText.includes('\r\n') ? '\r\n' : '\n';
  const body = yamlText === '' || yamlText.endsWith('\n') ? yamlText : yamlText + eol;
  return `---${eol}${body}---${eol}`;
}
