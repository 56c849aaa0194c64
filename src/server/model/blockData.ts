// A block's stored fields: the dialect's parsed fields (`body` and the markdown-borne styling)
// plus the fields markdown does not carry (font, color, alignment, task dates, media sizes…).
// Default values are never stored, so they are never sent (docs/api.md).
import { BLOCK_FIELDS, type Block, type BlockType, type ParsedBlock, type TaskInfo } from '../../dialect/types.js';

export type BlockData = Omit<ParsedBlock, 'type' | 'taskInfo'> & {
  taskInfo?: TaskInfo;
  textAlignment?: Block['textAlignment'];
  font?: Block['font'];
  color?: string;
  description?: string;
  preview?: Block['preview'];
  width?: Block['width'];
  size?: Block['size'];
  properties?: Record<string, unknown>;
};

/** The keys a block may hold, in the order the wire shows them (the dialect's list). */
export const DATA_KEYS = BLOCK_FIELDS satisfies ReadonlyArray<keyof BlockData>;

const DEFAULTS: Partial<Record<keyof BlockData, unknown>> = {
  textStyle: 'body',
  listStyle: 'none',
  indentationLevel: 0,
  textAlignment: 'left',
  font: 'system',
  lineStyle: 'regular',
};

/** Drops default-valued and empty keys, so what is stored is exactly what is sent. */
export function withoutDefaults(type: BlockType, d: BlockData): BlockData {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (v === undefined || v === null) continue;
    if (DEFAULTS[k as keyof BlockData] === v) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    // A page's own style is the default of its type.
    if (k === 'textStyle' && type === 'page' && v === 'page') continue;
    out[k] = v;
  }
  return out as BlockData;
}

export function parseData(json: string): BlockData {
  return JSON.parse(json) as BlockData;
}
