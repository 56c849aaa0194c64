import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalMarkdown } from '../../dialect/index.js';
import { baseAfter } from './baseAfter.js';
import { cardLayoutOf, fileCardLayout } from './cardLayout.js';
import { hashBlock } from './hashBlock.js';
import { planSync } from '../push/plan.js';
import { baseOf, blk, pg, runMerge, type Spec } from '../../../test/support/coreSupport.js';
import type { BaseBlock, LocalBlock } from '../types.js';

const card = (title: string, children: LocalBlock[], attrs?: Record<string, string>): LocalBlock => ({
  ...pg(title, children, 'card'),
  ...(attrs ? { attrs } : {}),
});
const DOC: Spec[] = [
  ['A', 'Alpha'],
  ['K', 'A card', [['KI', 'inside']], 'card'],
];
/** Base as the journal gives it back: no layout field, the layout (as last synced) in the card's hash. */
const journalBase = (layout: string | undefined): BaseBlock[] =>
  baseOf(DOC).map((b) => (b.kind === 'card' ? { ...b, hash: hashBlock(b.markdown, 'card', layout) } : b));
/** A card's hash as it was made before layouts were hashed. */
const oldHash = (markdown: string) =>
  createHash('sha256')
    .update(`card\u0000${canonicalMarkdown(markdown)}`)
    .digest('hex')
    .slice(0, 32);

describe('card layouts', () => {
  it("reads a layout back from a base block's hash, and knows when an older hash cannot tell", () => {
    expect(cardLayoutOf({ kind: 'card', markdown: 'T', hash: hashBlock('T', 'card', 'square') })).toEqual({ known: true, layout: 'square' });
    expect(cardLayoutOf({ kind: 'card', markdown: 'T', hash: hashBlock('T', 'card') })).toEqual({ known: true });
    expect(cardLayoutOf({ kind: 'card', markdown: 'T', hash: oldHash('T') })).toEqual({ known: false });
    expect(cardLayoutOf({ kind: 'card', markdown: 'T', cardLayout: 'large', hash: oldHash('T') })).toEqual({ known: true, layout: 'large' });
    // The service's own blocks (no hash) say it outright.
    expect(cardLayoutOf({ kind: 'card', markdown: 'T' })).toEqual({ known: true });
    // Only cards hash a layout; other blocks hash as before.
    expect(hashBlock('x', 'block', 'small')).toBe(hashBlock('x', 'block'));
  });

  it('checks what a card of the file asks for', () => {
    expect(fileCardLayout(card('T', [], { cardLayout: 'small' }))).toEqual({ layout: 'small' });
    expect(fileCardLayout(card('T', [], { cardLayout: 'huge' }))).toEqual({ invalid: 'huge' });
    expect(fileCardLayout(card('T', [], { id: 'X' }))).toEqual({});
    expect(fileCardLayout({ ...pg('P', []), attrs: { cardLayout: 'small' } })).toEqual({});
  });

  it('sends a layout the file changed, and records it for the next cycle', () => {
    const { cs } = runMerge(journalBase('small'), [blk('Alpha'), card('A card', [blk('inside')], { cardLayout: 'large' })], undefined);
    expect(cs.edits).toEqual([{ id: 'K', markdown: 'A card', was: 'A card', cardLayout: 'large' }]);
    expect(planSync({ documents: [{ doc: 'D', name: 'Doc', changes: cs }] })[0]!.body).toEqual({
      blocks: [{ id: 'K', markdown: 'A card', cardLayout: 'large' }],
    });
    const next = baseAfter(cs, 'D', new Map())!;
    expect(cardLayoutOf(next.find((b) => b.id === 'K')!)).toEqual({ known: true, layout: 'large' });
  });

  it('sends nothing for a layout the file shows as last synced', () => {
    const { cs } = runMerge(journalBase('small'), [blk('Alpha'), card('A card', [blk('inside')], { cardLayout: 'small' })], undefined);
    expect(cs.edits).toEqual([]);
  });

  it("sends nothing when the layout last synced is unknown (an older hash), and records the file's", () => {
    const base = baseOf(DOC).map((b) => (b.kind === 'card' ? { ...b, hash: oldHash(b.markdown) } : b));
    const { cs } = runMerge(base, [blk('Alpha'), card('A card', [blk('inside')], { cardLayout: 'large' })], undefined);
    expect(cs.edits).toEqual([]);
    expect(cs.expected.find((b) => b.id === 'K')).toMatchObject({ cardLayout: 'large' });
  });

  it('leaves a layout the service changed alone when the file did not change it, and records what the file shows', () => {
    const remote = baseOf(DOC).map(({ hash: _h, ...r }) => (r.kind === 'card' ? { ...r, cardLayout: 'square' as const } : r));
    const { m, cs } = runMerge(journalBase('small'), [blk('Alpha, edited'), card('A card', [blk('inside')], { cardLayout: 'small' })], remote);
    expect(m.problems).toEqual([]);
    expect(cs.edits).toEqual([{ id: 'A', markdown: 'Alpha, edited', was: 'Alpha' }]);
    expect(cs.expected.find((b) => b.id === 'K')).toMatchObject({ cardLayout: 'small' });
  });

  it("sends the file's layout when both sides changed it", () => {
    const remote = baseOf(DOC).map(({ hash: _h, ...r }) => (r.kind === 'card' ? { ...r, cardLayout: 'square' as const } : r));
    const { cs } = runMerge(journalBase('small'), [blk('Alpha'), card('A card', [blk('inside')], { cardLayout: 'large' })], remote);
    expect(cs.edits).toEqual([{ id: 'K', markdown: 'A card', was: 'A card', cardLayout: 'large' }]);
  });

  it('creates a new card with its layout; holds one whose layout the service does not know', () => {
    const made = runMerge(
      journalBase(undefined),
      [...[blk('Alpha'), card('A card', [blk('inside')])], card('New', [blk('x')], { cardLayout: 'regular' })],
      undefined,
    );
    expect(made.cs.inserts[0]!.blocks[0]).toMatchObject({ kind: 'card', markdown: 'New', cardLayout: 'regular' });
    expect(planSync({ documents: [{ doc: 'D', name: 'Doc', changes: made.cs }] })[0]!.body).toMatchObject({
      blocks: [{ type: 'page', textStyle: 'card', markdown: 'New', cardLayout: 'regular' }],
    });

    const held = runMerge(journalBase(undefined), [blk('Alpha'), card('A card', [blk('inside')]), card('New', [blk('x')], { cardLayout: 'huge' })], undefined);
    expect(held.cs.inserts).toEqual([]);
    expect(held.m.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^Not sent: its card layout "huge" is not one the service knows/)]);
  });

  it("reports an existing card's unknown layout value and sends the rest", () => {
    const { m, cs } = runMerge(journalBase('small'), [blk('Alpha, edited'), card('A card', [blk('inside')], { cardLayout: 'huge' })], undefined);
    expect(cs.edits).toEqual([{ id: 'A', markdown: 'Alpha, edited', was: 'Alpha' }]);
    expect(m.problems).toEqual([{ id: 'K', markdown: 'A card', message: expect.stringMatching(/^This card's layout is not sent: its card layout "huge"/) }]);
    expect(cs.expected.find((b) => b.id === 'K')).toMatchObject({ cardLayout: 'small' });
  });
});
