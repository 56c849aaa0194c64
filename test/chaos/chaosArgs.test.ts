import { describe, expect, it } from 'vitest';
import { CHAOS_USAGE, parseChaosArgs, type ChaosRunArgs } from './chaosArgs.js';

const run = (argv: string[], env: { SEED?: string } = {}): ChaosRunArgs => {
  const r = parseChaosArgs(argv, env);
  if (r.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(r)}`);
  return r.args;
};
const error = (argv: string[], env: { SEED?: string } = {}): string => {
  const r = parseChaosArgs(argv, env);
  if (r.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.message;
};

describe('npm run chaos: the command line', () => {
  it('runs once with a fresh seed and the documented defaults when given nothing', () => {
    expect(run([])).toEqual({ seed: undefined, runs: 1, operations: 30, kills: 2, verbose: false, trace: undefined, with: undefined, backup: false });
  });

  it('replays a seed given with --seed as with SEED, the flag winning over the variable', () => {
    expect(run(['--seed', '1234']).seed).toBe(1234);
    expect(run([], { SEED: '1234' }).seed).toBe(1234);
    expect(run(['--seed=77'], { SEED: '1234' }).seed).toBe(77);
    expect(run(['--seed', '5', '--runs', '3'])).toMatchObject({ seed: 5, runs: 3 });
  });

  it('reads every documented option, in either form', () => {
    expect(
      run(['--runs', '200', '--ops=50', '--kills', '3', '--verbose', '--backup', '--trace', 'Doc A', '--with', 'fixtures/spaces/live-shapes.json']),
    ).toEqual({
      seed: undefined,
      runs: 200,
      operations: 50,
      kills: 3,
      verbose: true,
      trace: 'Doc A',
      with: 'fixtures/spaces/live-shapes.json',
      backup: true,
    });
    expect(run([]).backup).toBe(false);
  });

  it('answers --help and -h with the usage, which names every option', () => {
    expect(parseChaosArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseChaosArgs(['--seed', '3', '-h'])).toEqual({ kind: 'help' });
    for (const flag of ['--seed', '--runs', '--ops', '--kills', '--verbose', '--backup', '--trace', '--with', '--help']) expect(CHAOS_USAGE).toContain(flag);
  });

  it('refuses unknown flags, stray words, missing and malformed values instead of starting a random run', () => {
    expect(error(['--sed', '3'])).toMatch(/Unknown option "--sed"\. Nothing was run; see npm run chaos -- --help\./);
    expect(error(['1234'])).toMatch(/Unexpected argument "1234"/);
    expect(error(['--seed'])).toMatch(/--seed needs a value/);
    expect(error(['--seed', '--verbose'])).toMatch(/--seed needs a value/);
    expect(error(['--seed', 'abc'])).toMatch(/--seed must be a whole number, got "abc"/);
    expect(error([], { SEED: '-1' })).toMatch(/SEED must be a whole number, got "-1"/);
    expect(error(['--ops', '2.5'])).toMatch(/--ops needs a whole number, got "2\.5"/);
    expect(error(['--runs', '0'])).toMatch(/--runs needs at least 1 run/);
    expect(error(['--verbose=yes'])).toMatch(/--verbose takes no value/);
    expect(error(['--seed', '1', '--seed', '2'])).toMatch(/--seed was given twice/);
  });
});
