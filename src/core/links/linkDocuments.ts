// Links between documents show in the mirror as relative links to files, which any Markdown editor
// follows: `[see](block://<document id>)` as `[see](../Projects/Roadmap.md)`, `[day](date://2026-11-20)`
// as `[day](../Daily%20Notes/…)`, written `[day](<../Daily Notes/2026-11-20.md>)` (angle brackets when
// the path holds a space, as the asset links are). A link to a block inside a document shows as a link
// to its document's file with an anchor (`../Projects/Roadmap.md#Goals%20for%202026` for a heading,
// `…Roadmap.md#^a1b2c3d4` for any other block, whose line then carries the marker ` ^a1b2c3d4`), once
// the journal knows where that block is (`anchorOf`). The file's form is what base holds (as for
// assets); the push turns a relative link that names a mirrored document (or one of its blocks) back
// into `block://` or `date://`. A link to an id the mirror does not know, `invalid:out_of_scope`, and a
// relative link to a file that is no document stay as they are. Code (spans, fences, code blocks) is
// never touched.
import { typesWhere, withMarker, type Block } from '../../dialect/index.js';
import { dirOfPath } from '../files/fileName.js';
import { BUILTIN_DIRS } from '../pull/layout.js';

/** How the mirror names a block inside a document: its document, and the fragment after `#` (`^short` or a heading's text, not encoded). */
export interface Anchor {
  doc: string;
  fragment: string;
}

/** Where the mirror holds each document (and each block it shows links to): both ways, as the journal has them now. */
export interface LinkTargets {
  /** The file of the document `id` (relative to the mirror root); undefined when the mirror holds none. */
  pathOf(id: string): string | undefined;
  /** The document whose file is `path`; undefined when no document is there. */
  idOf(path: string): string | undefined;
  /** The anchor of a block inside a document that a file of the mirror links to; undefined when none is known. */
  anchorOf?(blockId: string): Anchor | undefined;
  /** The block the fragment (decoded) names in the document `doc`; undefined when it names none the journal knows. */
  blockAt?(doc: string, fragment: string): string | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Block types whose markdown holds no link between documents (code, media, collections): never rewritten. */
const UNTOUCHED: ReadonlySet<string> = new Set(['code', 'table', 'collection', 'collectionItem', ...typesWhere((t) => t.media)]);

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

// The part after `#` of a link to a block: `^<short id>` for a block with its marker, or a heading's
// plain text, percent-encoded as a URI fragment (`Goals%20for%202026`). Letters of any script stay as
// they are, as in the paths; spaces, `%`, brackets, parentheses and the like are escaped, so a bare
// destination stays one.

const KEEP = /[A-Za-z0-9\-._~!$&'*+,;=:@/?]/;

/** A fragment (a heading's text, or `^short`) as a link writes it after `#`. */
export function writeFragment(fragment: string): string {
  if (fragment.startsWith('^')) return fragment;
  let out = '';
  for (const ch of fragment) {
    const code = ch.codePointAt(0)!;
    if (KEEP.test(ch) || (code >= 0x80 && !/\s/u.test(ch))) out += ch;
    else out += code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(ch);
  }
  return out;
}

/** A fragment as written after `#`, read: `^short` as it is, a heading's text decoded; null when it cannot be decoded or is empty. */
export function readFragment(written: string): string | null {
  if (written.startsWith('^')) return written.length > 1 ? written : null;
  try {
    const text = decodeURIComponent(written);
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/**
 * The destination as written: the path, then `#` and the fragment as written (`writeFragment`) when
 * there is one; in angle brackets when the path holds a space, parentheses or angle brackets (CommonMark).
 */
export const written = (p: string, writtenFragment?: string): string => {
  const d = writtenFragment === undefined ? p : `${p}#${writtenFragment}`;
  return /[\s()<>]/.test(p) ? `<${d}>` : d;
};

/** The link to an anchor from the file `docPath`, as written; undefined when its document has no file. */
export function anchorLink(docPath: string, anchor: Anchor, targets: Pick<LinkTargets, 'pathOf'>): string | undefined {
  const path = targets.pathOf(anchor.doc);
  return path === undefined ? undefined : written(relativePath(docPath, path), writeFragment(anchor.fragment));
}

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** A relative link to a `.md` file, read: its path (decoded) and, for a link to a block or heading, the fragment (decoded) and as written. */
export interface MdLink {
  path: string;
  fragment?: string;
  writtenFragment?: string;
}

/** A destination as written, read as a link to a `.md` file (angle brackets removed, percent-escapes decoded); null when it is none. */
export function readMdLink(dest: string): MdLink | null {
  const d = dest.startsWith('<') ? dest.slice(1, -1) : dest.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const whole = decode(d);
  if (whole === null) return null;
  if (whole.endsWith('.md')) return { path: whole };
  const hash = d.lastIndexOf('#');
  if (hash < 0) return null;
  const path = decode(d.slice(0, hash));
  const fragment = readFragment(d.slice(hash + 1));
  if (path === null || !path.endsWith('.md') || fragment === null) return null;
  return { path, fragment, writtenFragment: d.slice(hash + 1) };
}

/**
 * A block's markdown with its `block://<document id>` and `date://` links as relative links from the
 * file `docPath`, and its `block://<block id>` links as links to the block's anchor where one is known.
 */
export function linkMarkdown(markdown: string, docPath: string, targets: LinkTargets): string {
  if (!markdown.includes('block://') && !markdown.includes('date://')) return markdown;
  return mapDestinations(markdown, (dest) => {
    const d = dest.startsWith('<') ? dest.slice(1, -1) : dest;
    let target: string | undefined;
    if (d.startsWith('block://')) {
      const id = d.slice('block://'.length);
      target = targets.pathOf(id);
      if (target === undefined) {
        const anchor = targets.anchorOf?.(id);
        return (anchor && anchorLink(docPath, anchor, targets)) ?? dest;
      }
    } else if (d.startsWith('date://') && DATE.test(d.slice('date://'.length))) target = dailyNotePath(d.slice('date://'.length));
    return target === undefined ? dest : written(relativePath(docPath, target));
  });
}

const isDailyNotePath = (path: string): boolean =>
  path.startsWith(`${BUILTIN_DIRS.daily_notes}/`) && DATE.test(path.slice(BUILTIN_DIRS.daily_notes.length + 1, -3));

/** `markdown` with each relative link to a `.md` path (resolved from the file `docPath`), with or without a fragment, given what `to` makes of it. */
export function mapMdLinks(markdown: string, docPath: string, to: (path: string, dest: string, link: MdLink) => string): string {
  if (!markdown.includes('.md')) return markdown;
  return mapDestinations(markdown, (dest) => {
    const link = readMdLink(dest);
    if (link === null) return dest;
    const path = resolveLink(docPath, link.path);
    return path === null ? dest : to(path, dest, link);
  });
}

/**
 * A block's markdown as the service must be sent it: each relative link from `docPath` to a mirrored
 * document (or daily note) as `block://` (or `date://`); a link with a fragment naming a block of that
 * document the journal knows as `block://<block id>`. Anything else stays as written.
 */
export function unlinkMarkdown(markdown: string, docPath: string, targets: LinkTargets): string {
  return mapMdLinks(markdown, docPath, (path, dest, link) => {
    if (link.fragment !== undefined) {
      const doc = targets.idOf(path);
      const block = doc === undefined ? undefined : targets.blockAt?.(doc, link.fragment);
      return block === undefined ? dest : `block://${block}`;
    }
    if (isDailyNotePath(path)) return `date://${path.slice(BUILTIN_DIRS.daily_notes.length + 1, -3)}`;
    const id = targets.idOf(path);
    return id === undefined ? dest : `block://${id}`;
  });
}

/** Whether a block of this type can hold links between documents. */
export const holdsDocumentLinks = (type: string): boolean => !UNTOUCHED.has(type);

// Which blocks a mirror file marks with a block id (` ^a1b2c3d4`) when another file links to them:
// text blocks with text. A code block, a table, media, a page's title or an empty paragraph cannot
// carry one at the end of its line without changing what it is; a link to such a block still names
// it with `#^<short id>`, which opens its file.
export const carriesMarker = (kind: string, type: string, markdown: string): boolean => kind === 'block' && type === 'text' && markdown.trim() !== '';

/**
 * The document's blocks with their links between documents as relative links from the file `docPath`
 * (`linkMarkdown`), and the marker ` ^<short id>` on each block a file links to by it.
 */
export function linkDocuments(root: Block, docPath: string, targets: LinkTargets): Block {
  const visit = (b: Block): Block => {
    let out = b;
    if (b.markdown !== undefined && holdsDocumentLinks(b.type)) {
      let markdown = linkMarkdown(b.markdown, docPath, targets);
      const fragment = targets.anchorOf?.(b.id)?.fragment;
      if (fragment?.startsWith('^') && carriesMarker('block', b.type, markdown)) markdown = withMarker(markdown, fragment.slice(1));
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
 * moved, a link to another document (`isDocument`) keeps naming it from the new folder. A link's
 * fragment (a block's anchor) stays as written. Links to files that are no document stay as they are
 * (the space holds them so).
 */
export function relinkMarkdown(
  markdown: string,
  docPath: string,
  moved: ReadonlyMap<string, string>,
  newDocPath: string = docPath,
  isDocument: (path: string) => boolean = () => false,
): string {
  return mapMdLinks(markdown, docPath, (path, dest, link) => {
    // A file moved takes along its links to documents and to days (a day's file need not exist: the link is date://).
    const to = moved.get(path) ?? (docPath !== newDocPath && (isDocument(path) || isDailyNotePath(path)) ? path : undefined);
    return to === undefined ? dest : written(relativePath(newDocPath, to), link.writtenFragment);
  });
}

// The link destinations of a markdown text, outside code: what the links between documents and to
// blocks are read from and rewritten in. Code spans and fenced code are copied as they are.

/** A link's destination right after `](`: in angle brackets, or bare (balanced parentheses one deep), then an optional title. */
const DEST = /^(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))+)([ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)/;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` with each link destination outside code passed through `map` (the destination as written;
 * it returns the new one as written, or the same). Code spans and fenced code are copied as they are.
 */
export function mapDestinations(text: string, map: (dest: string) => string): string {
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
