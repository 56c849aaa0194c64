// Links between documents show in the mirror as relative links to files, which any Markdown editor
// follows: `[see](block://<document id>)` as `[see](../Projects/Roadmap.md)`, `[day](date://2026-11-20)`
// as `[day](../Daily%20Notes/…)`, written `[day](<../Daily Notes/2026-11-20.md>)` (angle brackets when
// the path holds a space, as the asset links are). The file's form is what base holds (as for assets);
// the push turns a relative link that names a mirrored document back into `block://` or `date://`.
// A link to a block inside a document, to an id the mirror does not know, `invalid:out_of_scope`, and a
// relative link to a file that is no document stay as they are. Code (spans, fences, code blocks) is
// never touched.
import type { Block } from '../dialect/index.js';
import { dirOfPath } from './fileName.js';
import { BUILTIN_DIRS } from './layout.js';

/** Where the mirror holds each document: both ways, as the journal has them now. */
export interface LinkTargets {
  /** The file of the document `id` (relative to the mirror root); undefined when the mirror holds none. */
  pathOf(id: string): string | undefined;
  /** The document whose file is `path`; undefined when no document is there. */
  idOf(path: string): string | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Block types whose markdown holds no link between documents (code, media, collections): never rewritten. */
const UNTOUCHED: ReadonlySet<string> = new Set(['code', 'image', 'video', 'file', 'drawing', 'whiteboard', 'collection', 'collectionItem', 'table']);
/** A link's destination right after `](`: in angle brackets, or bare (balanced parentheses one deep), then an optional title. */
const DEST = /^(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))+)([ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)/;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The file of the daily note of `date`, relative to the mirror root. */
export const dailyNotePath = (date: string): string => `${BUILTIN_DIRS.daily_notes}/${date}.md`;

/** `to` relative to the folder of `from` (both relative to the mirror root). */
export function relativePath(from: string, to: string): string {
  const a = dirOfPath(from) === '' ? [] : dirOfPath(from).split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

/** The path a relative link `dest` (decoded) in the file `from` names, relative to the mirror root; null when it leaves the mirror or is no file path. */
export function resolveLink(from: string, dest: string): string | null {
  if (dest === '' || dest.startsWith('/') || dest.startsWith('#') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(dest)) return null;
  const parts = dirOfPath(from) === '' ? [] : dirOfPath(from).split('/');
  for (const seg of dest.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.length === 0 ? null : parts.join('/');
}

/** The destination as written: in angle brackets when it holds a space, parentheses or angle brackets (CommonMark). */
const written = (p: string) => (/[\s()<>]/.test(p) ? `<${p}>` : p);

/** A destination as written, read: angle brackets removed, percent-escapes decoded; null when it cannot be decoded. */
function decoded(dest: string): string | null {
  const d = dest.startsWith('<') ? dest.slice(1, -1) : dest.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  try {
    return decodeURIComponent(d);
  } catch {
    return null;
  }
}

/**
 * `text` with each link destination outside code passed through `map` (the destination as written;
 * it returns the new one as written, or the same). Code spans and fenced code are copied as they are.
 */
function mapDestinations(text: string, map: (dest: string) => string): string {
  if (!text.includes('](')) return text;
  let out = '';
  let fence: string | null = null;
  for (const line of text.split(/(?<=\n)/)) {
    const m = FENCE.exec(line);
    if (fence === null) {
      if (m) fence = m[1]!;
      out += m ? line : mapLine(line, map);
    } else {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      out += line;
    }
  }
  return out;
}

function mapLine(line: string, map: (dest: string) => string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      // A code span: the same run of backticks closes it; an unclosed run is text.
      const run = /^`+/.exec(line.slice(i))![0];
      const close = line.indexOf(run, i + run.length);
      let j = close;
      while (j >= 0 && line[j + run.length] === '`') j = line.indexOf(run, j + run.length + 1);
      const stop = j < 0 ? i + run.length : j + run.length;
      out += line.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === ']' && line[i + 1] === '(') {
      const m = DEST.exec(line.slice(i + 2));
      if (m) {
        out += `](${map(m[1]!)}${line.slice(i + 2 + m[1]!.length, i + 2 + m[0].length)}`;
        i += 2 + m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** A block's markdown with its `block://<document id>` and `date://` links as relative links from the file `docPath`. */
export function linkMarkdown(markdown: string, docPath: string, targets: LinkTargets): string {
  if (!markdown.includes('block://') && !markdown.includes('date://')) return markdown;
  return mapDestinations(markdown, (dest) => {
    const d = dest.startsWith('<') ? dest.slice(1, -1) : dest;
    let target: string | undefined;
    if (d.startsWith('block://')) target = targets.pathOf(d.slice('block://'.length));
    else if (d.startsWith('date://') && DATE.test(d.slice('date://'.length))) target = dailyNotePath(d.slice('date://'.length));
    return target === undefined ? dest : written(relativePath(docPath, target));
  });
}

const isDailyNotePath = (path: string): boolean =>
  path.startsWith(`${BUILTIN_DIRS.daily_notes}/`) && DATE.test(path.slice(BUILTIN_DIRS.daily_notes.length + 1, -3));

/** `markdown` with each relative link to a `.md` path (resolved from the file `docPath`) given what `to` makes of it. */
function mapMdLinks(markdown: string, docPath: string, to: (path: string, dest: string) => string): string {
  if (!markdown.includes('.md')) return markdown;
  return mapDestinations(markdown, (dest) => {
    const d = decoded(dest);
    if (d === null || !d.endsWith('.md')) return dest;
    const path = resolveLink(docPath, d);
    return path === null ? dest : to(path, dest);
  });
}

/** A block's markdown as the service must be sent it: each relative link from `docPath` to a mirrored document (or daily note) as `block://` (or `date://`). */
export function unlinkMarkdown(markdown: string, docPath: string, targets: LinkTargets): string {
  return mapMdLinks(markdown, docPath, (path, dest) => {
    if (isDailyNotePath(path)) return `date://${path.slice(BUILTIN_DIRS.daily_notes.length + 1, -3)}`;
    const id = targets.idOf(path);
    return id === undefined ? dest : `block://${id}`;
  });
}

/** Whether a block of this type can hold links between documents. */
export const holdsDocumentLinks = (type: string): boolean => !UNTOUCHED.has(type);

/** The document's blocks with their links between documents as relative links from the file `docPath` (`linkMarkdown`). */
export function linkDocuments(root: Block, docPath: string, targets: LinkTargets): Block {
  const visit = (b: Block): Block => {
    let out = b;
    if (b.markdown !== undefined && holdsDocumentLinks(b.type)) {
      const markdown = linkMarkdown(b.markdown, docPath, targets);
      if (markdown !== b.markdown) out = { ...b, markdown };
    }
    if (b.content && b.content.length > 0) {
      const content = b.content.map(visit);
      if (content.some((c, i) => c !== b.content![i])) out = { ...out, content };
    }
    return out;
  };
  return visit(root);
}

/**
 * A block's markdown, written for the file `docPath` now at `newDocPath`, whose relative links to
 * documents follow them: a link to a path `moved` names goes to its new path, and when the file itself
 * moved, a link to another document (`isDocument`) keeps naming it from the new folder. Links to files
 * that are no document stay as they are (the space holds them so).
 */
export function relinkMarkdown(
  markdown: string,
  docPath: string,
  moved: ReadonlyMap<string, string>,
  newDocPath: string = docPath,
  isDocument: (path: string) => boolean = () => false,
): string {
  return mapMdLinks(markdown, docPath, (path, dest) => {
    // A file moved takes along its links to documents and to days (a day's file need not exist: the link is date://).
    const to = moved.get(path) ?? (docPath !== newDocPath && (isDocument(path) || isDailyNotePath(path)) ? path : undefined);
    return to === undefined ? dest : written(relativePath(newDocPath, to));
  });
}
