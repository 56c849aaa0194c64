import { describe, expect, it } from 'vitest';
import { docLinkRef, docRef, type PlanStep } from './plan.js';
import { resolveStep } from './refs.js';

const step = (markdown: string): PlanStep => ({
  method: 'POST',
  path: '/blocks',
  blocks: 1,
  docs: [docRef('A.md')],
  body: { blocks: [{ type: 'text', markdown }], position: { position: 'end', pageId: docRef('A.md') } },
  describe: 'POST /blocks',
});

describe('resolveStep', () => {
  it('puts the ids of documents created earlier in the plan into the links of a block, whatever their paths hold', () => {
    const path = 'Ideas (old)/Second idea, v2.md';
    const ids = new Map([
      [docRef('A.md'), 'ID-A'],
      [docRef(path), 'ID-B'],
    ]);
    const r = resolveStep(step(`See [b](block://${docLinkRef(path)}) and [again](block://${docLinkRef(path)}).`), ids);
    expect(r.ok && r.step.body).toEqual({
      blocks: [{ type: 'text', markdown: 'See [b](block://ID-B) and [again](block://ID-B).' }],
      position: { position: 'end', pageId: 'ID-A' },
    });
  });

  it('says which document is missing when a linked one was not created', () => {
    const r = resolveStep(step(`See [b](block://${docLinkRef('B.md')}).`), new Map([[docRef('A.md'), 'ID-A']]));
    expect(r).toEqual({ ok: false, missing: [docRef('B.md')] });
  });
});
