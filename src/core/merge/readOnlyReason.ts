// Blocks spacesync shows in a file but never changes, sends or deletes: a type it does not know, or
// a known type carrying fields it does not know (a service that added some). An edit could lose what
// it cannot see, so such a block stays as the service holds it; the app is the place to change it.
import { BLOCK_FIELDS, BLOCK_TYPES, type Block } from '../../dialect/types.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>(BLOCK_TYPES);

const KNOWN_FIELDS: ReadonlySet<string> = new Set<string>(['id', 'type', 'markdown', 'content', 'metadata', ...BLOCK_FIELDS]);

/** Why the service's block is kept read-only, or undefined when spacesync knows all of it. */
export function readOnlyReasonOf(b: Pick<Block, 'type'>): string | undefined {
  if (!KNOWN_TYPES.has(b.type)) return `a ${b.type} block, a type spacesync does not know`;
  const unknown = Object.keys(b).filter((k) => !KNOWN_FIELDS.has(k));
  return unknown.length > 0 ? `a ${b.type} block with fields spacesync does not know (${unknown.join(', ')})` : undefined;
}

/** Why a block of a document (base or remote) is read-only: its type, or what the journal recorded of it. */
export function readOnlyReason(b: { id: string; type: string }, recorded?: ReadonlyMap<string, string>): string | undefined {
  if (!KNOWN_TYPES.has(b.type)) return `a ${b.type} block, a type spacesync does not know`;
  return recorded?.get(b.id);
}
