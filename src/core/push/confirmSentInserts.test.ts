import { describe, expect, it } from 'vitest';
import { changeSetOf } from '../merge/changeSet.js';
import { confirmSentEdits, confirmSentInserts } from './confirmSentInserts.js';
import { coreDialect } from '../merge/mergeFile.js';
import { diffDocument } from '../merge/diff.js';
import { hashBlock } from '../merge/hashBlock.js';
import { mergeDocument } from '../merge/merge.js';
import { applyChanges, baseOf, blk, pg, remoteOf, type Spec } from '../../../test/support/coreSupport.js';
import type { BaseBlock, LocalBlock, RemoteBlock } from '../types.js';

const NAMES = ['- amber one', '- birch two', '- cedar three', '- delta four', '- ember five'];
const NEW = '- fjord new';
const BASE: Spec[] = NAMES.map((n, i) => [`B${i}`, n]);

/** What the push after the killed one sends, and the document it leaves. */
function pushAgain(base: BaseBlock[], local: LocalBlock[], remote: RemoteBlock[]) {
  const diff = diffDocument(base, local, { equals: coreDialect.equals });
  const m = mergeDocument({ base, diff, remote, dialect: coreDialect });
  const cs = changeSetOf(m.nodes, remote, coreDialect.equals, { moveIntoNewPages: true });
  return { cs, after: applyChanges(remote, cs).map((b) => b.markdown) };
}

/** A new page with one block inside, sent by a push that was killed once it had landed. */
function pageLanded() {
  const remote = remoteOf([...BASE, ['P1', 'A new page', [['C1', 'inside it']]]]);
  const sent = [
    { kind: 'page', markdown: 'A new page' },
    { kind: 'block', markdown: 'inside it' },
  ] as const;
  return { remote, base: confirmSentInserts(baseOf(BASE), sent, remote) };
}

describe('confirmSentInserts', () => {
  it('takes a landed insert into base where the space holds it, base otherwise unchanged', () => {
    const remote = remoteOf([BASE[0]!, ['R1', NEW], ...BASE.slice(1)]);
    const base = confirmSentInserts(baseOf(BASE), [{ kind: 'block', markdown: NEW }], remote);
    expect(base.map((b) => [b.id, b.position])).toEqual([
      ['B0', 0],
      ['R1', 1],
      ['B1', 2],
      ['B2', 3],
      ['B3', 4],
      ['B4', 5],
    ]);
    expect(base.find((b) => b.id === 'B2')).toEqual({ ...baseOf(BASE).find((b) => b.id === 'B2')!, position: 3 });
  });

  it('takes no more blocks of a text than were sent, and none the space had before', () => {
    const remote = remoteOf([['R1', NEW], ...BASE, ['R2', NEW]]);
    const base = confirmSentInserts(baseOf(BASE), [{ kind: 'block', markdown: NEW }], remote);
    expect(base.filter((b) => b.markdown === NEW).map((b) => b.id)).toEqual(['R1']);
    expect(confirmSentInserts(baseOf(BASE), [], remote)).toEqual(baseOf(BASE));
    expect(confirmSentInserts(baseOf(BASE), [{ kind: 'block', markdown: '- other' }], remote)).toEqual(baseOf(BASE));
  });

  it('takes a new page with its content', () => {
    const { base } = pageLanded();
    expect(base.slice(-2).map((b) => [b.id, b.parentId, b.position])).toEqual([
      ['P1', null, 5],
      ['C1', 'P1', 0],
    ]);
  });

  // Every place of the insert, then every move of one block of the file: the block is in the space once.
  it('after a killed push, a block inserted and then moved in the file is sent as a move, never twice', () => {
    const twice: string[] = [];
    for (let p = 0; p <= NAMES.length; p++) {
      const withNew = [...NAMES.slice(0, p), NEW, ...NAMES.slice(p)];
      const remote = remoteOf(withNew.map((n): Spec => [n === NEW ? 'R1' : `B${NAMES.indexOf(n)}`, n]));
      const base = confirmSentInserts(baseOf(BASE), [{ kind: 'block', markdown: NEW }], remote);
      for (let from = 0; from < withNew.length; from++)
        for (let to = 0; to < withNew.length; to++) {
          const file = [...withNew];
          file.splice(to, 0, file.splice(from, 1)[0]!);
          const { cs, after } = pushAgain(base, file.map(blk), remote);
          if (JSON.stringify(after) !== JSON.stringify(file) || cs.inserts.length > 0) twice.push(`${p}: ${from}→${to}`);
        }
    }
    expect(twice).toEqual([]);
  });

  it('after a killed push, an inserted block deleted from the file since is deleted in the space', () => {
    const remote = remoteOf([BASE[0]!, ['R1', NEW], ...BASE.slice(1)]);
    const base = confirmSentInserts(baseOf(BASE), [{ kind: 'block', markdown: NEW }], remote);
    const { cs, after } = pushAgain(base, NAMES.map(blk), remote);
    expect(cs.deletes).toEqual(['R1']);
    expect(after).toEqual(NAMES);
  });

  it('after a killed push, a new page moved in the file keeps its one copy', () => {
    const { remote, base } = pageLanded();
    const file = [pg('A new page', [blk('inside it')]), ...NAMES.map(blk)];
    const { cs, after } = pushAgain(base, file, remote);
    expect(cs.inserts).toEqual([]);
    expect(after).toEqual(['A new page', 'inside it', ...NAMES]);
  });
});

const block = (id: string, markdown: string, kind: BaseBlock['kind'] = 'block'): BaseBlock => ({
  id,
  parentId: null,
  position: 0,
  level: 0,
  kind,
  type: kind === 'block' ? 'text' : 'page',
  markdown,
  hash: hashBlock(markdown, kind),
});
const base = [block('a', 'first'), block('b', 'second'), block('p', 'A page', 'page')];

describe('confirmSentEdits', () => {
  it('takes the text a pending edit sent as the base of its block when the space holds it', () => {
    const out = confirmSentEdits(
      base,
      new Map([['a', 'first, sent']]),
      new Map([
        ['a', { markdown: 'first, sent' }],
        ['b', { markdown: 'second, from the app' }],
      ]),
    );
    expect(out.map((b) => b.markdown)).toEqual(['first, sent', 'second', 'A page']);
    expect(out[0]!.hash).toBe(hashBlock('first, sent'));
  });

  it("compares in canonical form: the service's respelling of what was sent is that edit", () => {
    const out = confirmSentEdits(base, new Map([['a', 'an _emphasis_']]), new Map([['a', { markdown: 'an *emphasis*' }]]));
    expect(out[0]!.markdown).toBe('an *emphasis*');
  });

  it('keeps the base where the space holds something else (the edit did not land, or was overwritten there)', () => {
    const out = confirmSentEdits(
      base,
      new Map([
        ['a', 'first, sent'],
        ['b', 'second, sent'],
      ]),
      new Map([['a', { markdown: 'first, from the app' }]]),
    );
    expect(out).toEqual(base);
  });

  it('leaves pages and cards alone (their markdown is a title)', () => {
    const out = confirmSentEdits(base, new Map([['p', 'Renamed']]), new Map([['p', { markdown: 'Renamed' }]]));
    expect(out).toEqual(base);
  });
});
