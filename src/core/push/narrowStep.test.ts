import { describe, expect, it } from 'vitest';
import { narrowStep } from './narrowStep.js';
import type { PlanStep } from './plan.js';

const put: PlanStep = {
  method: 'PUT',
  path: '/blocks',
  blocks: 3,
  docs: ['D1', 'D2'],
  parts: ['D1', 'D2', 'D1'],
  describe: 'PUT /blocks',
  body: {
    blocks: [
      { id: 'a', markdown: 'A' },
      { id: 'b', markdown: 'B' },
      { id: 'c', markdown: 'C' },
    ],
  },
};

describe('narrowStep', () => {
  it('leaves a step none of whose documents failed as it is', () => {
    expect(narrowStep(put, new Set(['D3']))).toBe(put);
  });

  it('drops the items of the failed documents and keeps the others', () => {
    const s = narrowStep(put, new Set(['D1']))!;
    expect(s.docs).toEqual(['D2']);
    expect(s.parts).toEqual(['D2']);
    expect(s.body).toEqual({ blocks: [{ id: 'b', markdown: 'B' }] });
    expect(s.blocks).toBe(1);
  });

  it('splits block deletes and document moves by their id lists', () => {
    const del: PlanStep = {
      method: 'DELETE',
      path: '/blocks',
      blocks: 4,
      docs: ['D1', 'D2'],
      parts: ['D1', 'D2'],
      body: { blockIds: ['x', 'y'] },
      describe: '',
    };
    expect(narrowStep(del, new Set(['D2']))!.body).toEqual({ blockIds: ['x'] });
    const move: PlanStep = {
      method: 'PUT',
      path: '/documents/move',
      blocks: 0,
      docs: ['D1', 'D2'],
      parts: ['D1', 'D2'],
      body: { documentIds: ['D1', 'D2'], destination: { destination: 'unsorted' } },
      describe: '',
    };
    const m = narrowStep(move, new Set(['D1']))!;
    expect(m.body).toEqual({ documentIds: ['D2'], destination: { destination: 'unsorted' } });
    expect(m.blocks).toBe(0);
  });

  it('gives null when nothing is left, or when the step cannot be split', () => {
    expect(narrowStep(put, new Set(['D1', 'D2']))).toBeNull();
    const { parts: _parts, ...unsplittable } = put;
    expect(narrowStep(unsplittable, new Set(['D1']))).toBeNull();
    expect(narrowStep({ ...put, parts: ['D1', 'D2'] }, new Set(['D1']))).toBeNull(); // parts that do not match the body
  });
});
