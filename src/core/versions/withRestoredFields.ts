// A restore writes a version's text into the file; the next push sends it as an ordinary edit, and
// a block the push deleted comes back as a new block made from its line. What its line does not show
// (its colour, alignment and font, a rich URL's own fields and type: unshownFields) the restore notes
// beside the document; the push gives each new block that is one of the noted blocks (same kind,
// same text, in the file's order) those fields again, and the base records them.
import type { ChangeSet, NewBlockSpec } from '../merge/changeSet.js';
import type { BlockKind, MarkdownEquals, RemoteBlock } from '../types.js';
import { sentByFields, type UnshownFields } from './unshownFields.js';

/** A block a restore wrote back whose line does not say all of it, as the history held it. */
export interface RestoredBlock {
  kind: BlockKind;
  type: string;
  /** Its text as the file shows it. */
  markdown: string;
  unshown?: UnshownFields;
}

/** The noted blocks of a version's blocks: those with fields their line does not show. */
export function restoredBlocksOf(blocks: ReadonlyArray<RestoredBlock & { unshown?: UnshownFields }>): RestoredBlock[] {
  return blocks
    .filter((b) => b.unshown !== undefined || sentByFields(b.type))
    .map((b) => ({ kind: b.kind, type: b.type, markdown: b.markdown, ...(b.unshown ? { unshown: b.unshown } : {}) }));
}

/** The change set with the new blocks that are noted ones given their fields (and type), in the sent blocks and the expected document alike. */
export function withRestoredFields(changes: ChangeSet, noted: readonly RestoredBlock[], equals: MarkdownEquals): ChangeSet {
  if (noted.length === 0 || changes.inserts.length === 0) return changes;
  const used = new Uint8Array(noted.length);
  let from = 0;
  /** The noted block a new one is: the next in order with its kind and text, the same text first, then the same meaning. */
  const match = (s: NewBlockSpec): RestoredBlock | undefined => {
    for (const same of [(a: string, b: string) => a === b, equals]) {
      for (let k = 0; k < noted.length; k++) {
        const i = (from + k) % noted.length;
        const n = noted[i]!;
        if (used[i] || n.kind !== s.kind || !same(n.markdown, s.markdown)) continue;
        used[i] = 1;
        from = i + 1;
        return n;
      }
    }
    return undefined;
  };
  const given = new Map<string, Pick<RemoteBlock, 'type' | 'unshown'>>();
  const spec = (s: NewBlockSpec): NewBlockSpec => {
    const n = match(s);
    const children = s.children.map(spec);
    if (!n) return children.every((c, i) => c === s.children[i]) ? s : { ...s, children };
    // A type the line reads back as another (a rich URL) is sent as the space had it, with its fields.
    const type = sentByFields(n.type) ? n.type : s.type;
    given.set(s.ref, { type, ...(n.unshown ? { unshown: n.unshown } : {}) });
    return { ...s, type, children, ...(n.unshown ? { unshown: n.unshown } : {}) };
  };
  const inserts = changes.inserts.map((run) => ({ ...run, blocks: run.blocks.map(spec) }));
  if (given.size === 0) return changes;
  const expected = changes.expected.map((r) => {
    const g = given.get(r.id);
    return g ? { ...r, ...g } : r;
  });
  return { ...changes, inserts, expected };
}
