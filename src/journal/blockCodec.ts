// How the journal stores a list of blocks (a document's base, a remote version) in one BLOB:
// a format byte, the ids as 16 bytes each when every id is a UUID of one case, then the rest
// (parent as an index, position, level, kind, type, markdown, and the rare extras: a hash hashBlock
// does not give back, a card's layout, the fields the file does not show, a version's change) as JSON
// compressed with deflate over a shared dictionary (format 2; format 1, brotli without one, is still
// read). Ten blocks of notes take about a sixth of their size as rows.
import { brotliDecompressSync, deflateRawSync, inflateRawSync } from 'node:zlib';
import { hashBlock } from '../core/merge/hashBlock.js';
import { BLOCK_DICTIONARY } from './blockDictionary.js';
import type { BaseBlock, BlockKind } from '../core/types.js';

/** A block as the codec carries it: the fields every block has, and extras only some have. */
export interface CodedBlock {
  id: string;
  parentId: string | null;
  position: number;
  level: number;
  kind: string;
  type: string;
  markdown: string;
  hash?: string;
  cardLayout?: string;
  /** The service's fields the file does not show (core/versions/unshownFields). */
  unshown?: Record<string, unknown>;
  change?: 'edited' | 'deleted';
}

/** Brotli without a dictionary (schemas 4 to 6): read, no longer written. */
const FORMAT_BROTLI = 1;
/** Raw deflate (no header, no checksum: SQLite checks its pages) over BLOCK_DICTIONARY. */
const FORMAT = 2;
const IDS_TEXT = 0;
const IDS_UPPER = 1;
const IDS_LOWER = 2;
const UUID_UPPER = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const UUID_LOWER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Extras: the id when ids are not binary, a parent outside the list, and the optional fields. */
interface Extra {
  i?: string;
  p?: string;
  h?: string;
  c?: string;
  u?: Record<string, unknown>;
  x?: 'edited' | 'deleted';
}
type Row = [parent: number, position: number, level: number, kind: string, type: string, markdown: string, extra?: Extra];

function idCase(blocks: readonly CodedBlock[]): number {
  if (blocks.length === 0) return IDS_TEXT;
  if (blocks.every((b) => UUID_UPPER.test(b.id))) return IDS_UPPER;
  if (blocks.every((b) => UUID_LOWER.test(b.id))) return IDS_LOWER;
  return IDS_TEXT;
}

export function encodeBlocks(blocks: readonly CodedBlock[]): Buffer {
  const ids = idCase(blocks);
  const index = new Map(blocks.map((b, i) => [b.id, i]));
  const rows = blocks.map((b): Row => {
    const parent = b.parentId === null ? -1 : index.get(b.parentId);
    const extra: Extra = {};
    if (ids === IDS_TEXT) extra.i = b.id;
    if (parent === undefined) extra.p = b.parentId!;
    if (b.hash !== undefined) extra.h = b.hash;
    if (b.cardLayout !== undefined) extra.c = b.cardLayout;
    if (b.unshown !== undefined) extra.u = b.unshown;
    if (b.change !== undefined) extra.x = b.change;
    const row: Row = [parent ?? -2, b.position, b.level, b.kind, b.type, b.markdown];
    if (Object.keys(extra).length > 0) row.push(extra);
    return row;
  });
  const json = Buffer.from(JSON.stringify(rows), 'utf8');
  const packed = deflateRawSync(json, { level: 9, dictionary: BLOCK_DICTIONARY });
  const head = Buffer.from([FORMAT, ids]);
  if (ids === IDS_TEXT) return Buffer.concat([head, packed]);
  // Binary ids: how many (4 bytes), then 16 bytes each.
  const binary = Buffer.alloc(4 + blocks.length * 16);
  binary.writeUInt32BE(blocks.length, 0);
  blocks.forEach((b, i) => binary.write(b.id.replace(/-/g, ''), 4 + i * 16, 'hex'));
  return Buffer.concat([head, binary, packed]);
}

function uuid(bytes: Buffer, upper: boolean): string {
  const h = bytes.toString('hex');
  const s = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return upper ? s.toUpperCase() : s;
}

export function decodeBlocks(data: Uint8Array): CodedBlock[] {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const format = buf[0];
  if (format !== FORMAT && format !== FORMAT_BROTLI)
    throw new Error(`The journal holds blocks in an unknown format (${buf[0]}): a newer spacesync wrote them.`);
  const ids = buf[1]!;
  if (ids !== IDS_TEXT && ids !== IDS_UPPER && ids !== IDS_LOWER) throw new Error(`The journal holds blocks with an unknown id form (${ids}).`);
  const count = ids === IDS_TEXT ? 0 : buf.readUInt32BE(2);
  const start = ids === IDS_TEXT ? 2 : 6 + count * 16;
  const packed = buf.subarray(start);
  const json = format === FORMAT ? inflateRawSync(packed, { dictionary: BLOCK_DICTIONARY }) : brotliDecompressSync(packed);
  const rows = JSON.parse(json.toString('utf8')) as Row[];
  if (ids !== IDS_TEXT && rows.length !== count) throw new Error(`The journal holds ${rows.length} blocks under ${count} ids: the record is damaged.`);
  const idOf = (i: number, extra: Extra | undefined): string => (ids === IDS_TEXT ? extra!.i! : uuid(buf.subarray(6 + i * 16, 22 + i * 16), ids === IDS_UPPER));
  const idList = rows.map((r, i) => idOf(i, r[6]));
  return rows.map(([parent, position, level, kind, type, markdown, extra], i): CodedBlock => ({
    id: idList[i]!,
    parentId: parent === -1 ? null : parent === -2 ? extra!.p! : idList[parent]!,
    position,
    level,
    kind,
    type,
    markdown,
    ...(extra?.h !== undefined ? { hash: extra.h } : {}),
    ...(extra?.c !== undefined ? { cardLayout: extra.c } : {}),
    ...(extra?.u !== undefined ? { unshown: extra.u } : {}),
    ...(extra?.x !== undefined ? { change: extra.x } : {}),
  }));
}

/** A document's base: each block's hash is kept only where hashBlock would not give it back. */
export function encodeBase(blocks: readonly BaseBlock[]): Buffer {
  return encodeBlocks(
    blocks.map((b): CodedBlock => {
      const coded: CodedBlock = { id: b.id, parentId: b.parentId, position: b.position, level: b.level, kind: b.kind, type: b.type, markdown: b.markdown };
      if (b.hash !== hashBlock(b.markdown, b.kind)) coded.hash = b.hash;
      if (b.unshown !== undefined) coded.unshown = b.unshown;
      return coded;
    }),
  );
}

export function decodeBase(data: Uint8Array): BaseBlock[] {
  return decodeBlocks(data).map((b) => ({
    id: b.id,
    parentId: b.parentId,
    position: b.position,
    level: b.level,
    kind: b.kind as BlockKind,
    type: b.type,
    markdown: b.markdown,
    hash: b.hash ?? hashBlock(b.markdown, b.kind),
    ...(b.unshown !== undefined ? { unshown: b.unshown as BaseBlock['unshown'] } : {}),
  }));
}
