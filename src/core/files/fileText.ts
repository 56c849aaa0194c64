// A document file's text: front matter (`id`, `title` when the name cannot carry it, the user's
// own keys kept byte for byte) followed by the body exactly as the dialect renders the blocks.
import { frontMatterBlock, updateFrontMatter, type FrontMatterFields } from './frontMatter.js';
import { frontMatter, renderFileBody, type Block } from '../../dialect/index.js';

export interface FrontMatterParts {
  /** The opening fence line (with a byte-order mark when the file has one). */
  open: string;
  /** The YAML between the fences. */
  inner: string;
  /** The closing fence line. */
  close: string;
  /** Where the body starts. */
  end: number;
}

export function frontMatterParts(text: string): FrontMatterParts | null {
  const fm = frontMatter(text);
  if (!fm) return null;
  const raw = fm.raw;
  const openEnd = raw.indexOf('\n') + 1;
  const rest = raw.slice(openEnd);
  const from = rest.endsWith('\n') ? rest.length - 2 : rest.length - 1;
  const closeStart = from < 0 ? 0 : rest.lastIndexOf('\n', from) + 1;
  return { open: raw.slice(0, openEnd), inner: rest.slice(0, closeStart), close: rest.slice(closeStart), end: fm.end };
}

/** A new file's text for a document: front matter, then the body. */
export function composeFile(root: Block, want: FrontMatterFields): string {
  const yaml = updateFrontMatter(undefined, want);
  if (!yaml.ok) throw new Error(yaml.problem); // a fresh front matter always parses
  return frontMatterBlock(yaml.text) + renderFileBody(root.content ?? []);
}

/**
 * `text` with its front matter carrying `want`, every other byte kept; a file without front
 * matter gets one. A front matter that does not parse is a problem (the file is not touched).
 */
export function withFrontMatter(text: string, want: FrontMatterFields, where: string): { ok: true; text: string } | { ok: false; problem: string } {
  const parts = frontMatterParts(text);
  const updated = updateFrontMatter(parts?.inner, want, where);
  if (!updated.ok) return updated;
  // A UTF-8 byte-order mark stays the file's first bytes.
  if (!parts)
    return { ok: true, text: text.startsWith('\uFEFF') ? `\uFEFF${frontMatterBlock(updated.text)}${text.slice(1)}` : frontMatterBlock(updated.text) + text };
  if (updated.text === parts.inner) return { ok: true, text };
  const eol = parts.open.endsWith('\r\n') ? '\r\n' : '\n';
  const inner = updated.text === '' || updated.text.endsWith('\n') ? updated.text : updated.text + eol;
  return { ok: true, text: parts.open + inner + parts.close + text.slice(parts.end) };
}

/** The body of a file (after its front matter). */
export function bodyOf(text: string): string {
  const parts = frontMatterParts(text);
  return parts ? text.slice(parts.end) : text;
}
