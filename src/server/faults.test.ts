import { describe, expect, it } from 'vitest';
import { Faults } from './faults.js';

describe('Faults', () => {
  it('a fault answers the next N matching requests, then disarms', () => {
    const f = new Faults();
    f.add({ match: { method: 'put', path: '^/blocks$' }, count: 2, kind: '500' });
    expect(f.take('GET', '/blocks')).toBeUndefined();
    expect(f.take('PUT', '/blocks/move')).toBeUndefined();
    expect(f.take('PUT', '/blocks')?.kind).toBe('500');
    expect(f.list()).toEqual([expect.objectContaining({ kind: '500', left: 1 })]);
    expect(f.take('PUT', '/blocks')?.kind).toBe('500');
    expect(f.take('PUT', '/blocks')).toBeUndefined();
  });

  it('without a match every request matches; faults fire in the order they were armed', () => {
    const f = new Faults();
    f.add({ kind: 'delay', delayMs: 5 });
    f.add({ kind: '429' });
    expect(f.take('GET', '/x')?.kind).toBe('delay');
    expect(f.take('GET', '/x')?.kind).toBe('429');
  });

  it('refuses unknown kinds, bad counts and bad patterns with a clear message', () => {
    const f = new Faults();
    expect(() => f.add({ kind: 'boom' as never })).toThrow(/Unknown fault kind/);
    expect(() => f.add({ kind: '500', count: 0 })).toThrow(/count/);
    expect(() => f.add({ kind: '500', match: { path: '(' } })).toThrow(/regular expression/);
  });
});
