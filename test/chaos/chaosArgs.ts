// The command line of `npm run chaos` (run.ts), read without starting anything, so a typo is
// refused before a run begins rather than ignored by one.

export const CHAOS_USAGE = `Usage: npm run chaos -- [options]
  Seeded chaos runs against the real server and daemon (docs/testing.md, "The chaos test").

  --seed N         replay seed N: the same space and operations (as SEED=N; the flag wins)
  --runs N         N runs, seeds counting up from the first (a fresh one unless a seed is given); 1 by default
  --ops N          operations per run (30)
  --kills N        daemon kills per run (2)
  --verbose        print every step of each run
  --trace ID       log that document's file and blocks at every change (an id or a title)
  --backup         run the mirror in backup mode: the oracles check that no writing request was ever sent
  --with FIXTURE   a space file whose folders and documents join each run's (e.g. fixtures/spaces/live-shapes.json)
  --help, -h       this text

  npm run chaos                      one run with a fresh seed (printed)
  npm run chaos -- --runs 200        200 runs
  npm run chaos -- --seed 1234       replays seed 1234 (SEED=1234 npm run chaos does the same)
`;

export interface ChaosRunArgs {
  /** The first seed, when one was given (a fresh one otherwise). */
  seed: number | undefined;
  runs: number;
  operations: number;
  kills: number;
  verbose: boolean;
  trace: string | undefined;
  with: string | undefined;
  /** The mirror in backup mode (config \`mode\`): its oracle is that nothing was ever sent. */
  backup: boolean;
}

export type ChaosArgs = { kind: 'help' } | { kind: 'run'; args: ChaosRunArgs } | { kind: 'error'; message: string };

const VALUED = new Set(['--seed', '--runs', '--ops', '--kills', '--trace', '--with']);
const SWITCHES = new Set(['--verbose', '--backup', '--help', '-h']);

const wholeNumber = (s: string): number | undefined => (/^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : undefined);

/** Reads `argv` (the arguments after the script) and the SEED variable of `env`. */
export function parseChaosArgs(argv: readonly string[], env: { SEED?: string | undefined } = {}): ChaosArgs {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const fail = (message: string): ChaosArgs => ({ kind: 'error', message: `${message} Nothing was run; see npm run chaos -- --help.` });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (SWITCHES.has(name)) {
      if (eq > 0) return fail(`${name} takes no value, got "${arg}".`);
      switches.add(name);
    } else if (VALUED.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('-'))) return fail(`${name} needs a value.`);
      if (values.has(name)) return fail(`${name} was given twice.`);
      values.set(name, value);
    } else if (arg.startsWith('-')) {
      return fail(`Unknown option "${arg}".`);
    } else {
      return fail(`Unexpected argument "${arg}": every option is named.`);
    }
  }
  if (switches.has('--help') || switches.has('-h')) return { kind: 'help' };

  const numbers: Record<string, number> = {};
  for (const [name, fallback] of [
    ['--runs', 1],
    ['--ops', 30],
    ['--kills', 2],
  ] as const) {
    const v = values.get(name);
    const n = v === undefined ? fallback : wholeNumber(v);
    if (n === undefined) return fail(`${name} needs a whole number, got "${v}".`);
    numbers[name] = n;
  }
  if (numbers['--runs']! < 1) return fail('--runs needs at least 1 run.');
  const seedText = values.get('--seed') ?? env.SEED;
  const seed = seedText === undefined ? undefined : wholeNumber(seedText);
  if (seedText !== undefined && seed === undefined) return fail(`${values.has('--seed') ? '--seed' : 'SEED'} must be a whole number, got "${seedText}".`);
  return {
    kind: 'run',
    args: {
      seed,
      runs: numbers['--runs']!,
      operations: numbers['--ops']!,
      kills: numbers['--kills']!,
      verbose: switches.has('--verbose'),
      trace: values.get('--trace'),
      with: values.get('--with'),
      backup: switches.has('--backup'),
    },
  };
}
