import { describe, expect, it } from 'vitest';
import { confirmSentEdits } from './confirmSentEdits.js';
import { hashBlock } from '../merge/hashBlock.js';
import type { BaseBlock } from '../types.js';

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
