// The plain text of a heading block (its inline markup stripped): what a link to the heading names
// after `#` (`[t](Roadmap.md#Goals%20for%202026)`), and what VS Code slugifies and Obsidian matches.
import { readBlock } from './readBlock.js';

const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4']);

/** Inline markdown as the text a reader sees: code spans, links, images, tags, emphasis and escapes taken off. */
export function plainText(inline: string): string {
  return (
    inline
      .replace(/`+([^`]*)`+/g, '$1')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<\/?[A-Za-z][^<>]*>/g, '')
      .replace(/==|~~|\*+/g, '')
      // An underscore is emphasis where it opens or closes a word, text inside one (`snake_case`).
      .replace(/(^|[\s\p{P}])_+(?=\S)|(?<=\S)_+(?=$|[\s\p{P}])/gu, '$1')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The plain text of a heading's markdown (`# Goals for **2026**` → `Goals for 2026`); null when it is no heading. */
export function headingText(markdown: string): string | null {
  let fields;
  try {
    fields = readBlock(markdown);
  } catch {
    return null;
  }
  if (fields.type !== 'text' || !HEADINGS.has(fields.textStyle ?? '') || (fields.listStyle ?? 'none') !== 'none') return null;
  return plainText(fields.body);
}

/** A heading's anchor as GitHub and VS Code make it: lower case, punctuation dropped, spaces as dashes. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}
