// A block's fields its line in the file does not show: its alignment, font and colour, a media
// block's preview, width and size, a rich URL's description; and for a rich URL, whose line
// (`[title](url)`) reads back as a text link, its type with its URL and title. The file cannot carry
// them, so a block the push deleted and a restore brings back from its text alone would lose them:
// the base and the history keep them, and a restored block is created with them again.
import type { Block } from '../../dialect/index.js';

export type UnshownFields = Partial<Pick<Block, 'textAlignment' | 'font' | 'color' | 'preview' | 'width' | 'size' | 'description' | 'url' | 'title'>>;

/** The fields no line shows, of any type. */
const UNSHOWN_KEYS = ['textAlignment', 'font', 'color', 'preview', 'width', 'size', 'description'] as const;

/**
 * Types whose line the file reads back as another type, with the fields that make one when its
 * type is sent (a rich URL's markdown is derived by the service from them).
 */
const TYPE_FIELDS: Readonly<Record<string, readonly ('url' | 'title')[]>> = { richUrl: ['url', 'title'] };

/** Whether a block of `type` must be sent with its type and fields to be made again: its line alone would make another type. */
export const sentByFields = (type: string): boolean => Object.hasOwn(TYPE_FIELDS, type);

/** The fields of the service's block `b` its line does not show; undefined when it has none. */
export function unshownFieldsOf(b: Block): UnshownFields | undefined {
  const out: Record<string, unknown> = {};
  for (const k of [...UNSHOWN_KEYS, ...(TYPE_FIELDS[b.type] ?? [])]) if (b[k] !== undefined) out[k] = b[k];
  return Object.keys(out).length > 0 ? (out as UnshownFields) : undefined;
}
