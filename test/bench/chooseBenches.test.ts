import { describe, expect, it } from 'vitest';
import { chooseBenches, ON_REQUEST } from '../../bench/chooseBenches.js';

const benches = ['startup', 'scale', 'pull', 'scheduler', 'rss'];

describe('bench/run.ts: which benchmarks run', () => {
  it('runs every benchmark but the slow ones by default, says which it left out, and writes the report', () => {
    expect(ON_REQUEST).toHaveProperty('scale');
    expect(chooseBenches(benches, [])).toEqual({ chosen: ['pull', 'rss', 'scheduler', 'startup'], skipped: ['scale'], named: false });
    expect(chooseBenches(benches, ['--timeout=60'])).toMatchObject({ skipped: ['scale'], named: false });
  });

  it('runs the slow ones too with --all', () => {
    expect(chooseBenches(benches, ['--all'])).toEqual({ chosen: ['pull', 'rss', 'scale', 'scheduler', 'startup'], skipped: [], named: false });
  });

  it('runs a slow one when it is named, and every benchmark a prefix names', () => {
    expect(chooseBenches(benches, ['scale'])).toEqual({ chosen: ['scale'], skipped: [], named: true });
    expect(chooseBenches(benches, ['s'])).toEqual({ chosen: ['scale', 'scheduler', 'startup'], skipped: [], named: true });
    expect(chooseBenches(benches, ['nothing'])).toEqual({ chosen: [], skipped: [], named: true });
  });
});
