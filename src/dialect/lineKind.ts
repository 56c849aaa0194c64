// What a line (with its indentation removed) starts, by the dialect's block rules.

export type LineKind = 'fence' | 'math' | 'wrapper' | 'collection' | 'callout' | 'close' | 'line' | 'heading' | 'list' | 'quote' | 'text';

export const FENCE = /^(?:(`{3,})([^`]*)|(~{3,})(.*))$/;
export const THEMATIC = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
export const HEADING = /^#{1,6}(?:[ \t]|$)/;
export const LIST = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
export const WRAPPER_OPEN = /^<(page|card)((?:[ \t]+[A-Za-z][\w-]*="[^"]*")*)[ \t]*>[ \t]*$/;
export const CLOSE_TAG = /^<\/(?:content|page|card|callout|collection|pageTitle)>[ \t]*$/;
export const COLLECTION_OPEN = /^<collection(?:[ \t][^>]*)?>[ \t]*$/;

/** Classifies a line's text after its indentation (`rest` is not blank). */
export function lineKind(rest: string): LineKind {
  const c = rest.charCodeAt(0);
  switch (c) {
    case 96: // `
    case 126: // ~
      return FENCE.test(rest) ? 'fence' : 'text';
    case 36: // $
      return rest.startsWith('$$') ? 'math' : 'text';
    case 60: // <
      if (rest.startsWith('<callout>')) return 'callout';
      if (WRAPPER_OPEN.test(rest)) return 'wrapper';
      if (COLLECTION_OPEN.test(rest)) return 'collection';
      if (CLOSE_TAG.test(rest)) return 'close';
      return 'text';
    case 35: // #
      return HEADING.test(rest) ? 'heading' : 'text';
    case 62: // >
      return 'quote';
    case 42: // *
    case 45: // -
    case 95: // _
      if (THEMATIC.test(rest)) return 'line';
      return c !== 95 && LIST.test(rest) ? 'list' : 'text';
    case 43: // +
      return LIST.test(rest) ? 'list' : 'text';
    default:
      if (c >= 48 && c <= 57 && LIST.test(rest)) return 'list';
      return 'text';
  }
}

/** A GFM table delimiter row (`|---|:--:|`), which turns the line above it into a table header. */
export function isDelimiterRow(rest: string): boolean {
  return rest.includes('-') && rest.includes('|') && /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/.test(rest);
}
