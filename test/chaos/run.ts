// `npm run chaos`: seeded chaos runs against the real server and daemon (chaos.ts). The options
// (chaosArgs.ts, `npm run chaos -- --help`):
//   npm run chaos                      one run with a fresh seed (printed)
//   npm run chaos -- --runs 200        200 runs, seeds counting up from a fresh one
//   npm run chaos -- --seed 1234       replays seed 1234 (the same space and operations); SEED=1234 too
//   --ops N (operations per run, default 30), --kills N (daemon kills per run, default 2), --verbose,
//   --trace ID_OR_TITLE (log that document's file and blocks at every change)
//   --with FIXTURE (a space file whose folders and documents join each run's, e.g. fixtures/spaces/live-shapes.json)
// A flag it does not know ends it with exit 64 before anything starts.
import { CHAOS_USAGE, parseChaosArgs } from './chaosArgs.js';

const parsed = parseChaosArgs(process.argv.slice(2), process.env);
if (parsed.kind === 'help') {
  process.stdout.write(CHAOS_USAGE);
  process.exit(0);
}
if (parsed.kind === 'error') {
  console.error(`chaos: ${parsed.message}`);
  process.exit(64);
}
const { args } = parsed;

// Loaded only for a run: --help and a refused command line start nothing.
const { readFixtureFile } = await import('../../src/server/index.js');
const { describeFailure, runChaos } = await import('./chaos.js');

// Ctrl-C ends the run; the exit handler of the scenario world kills the daemons it started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const { runs, operations, kills } = args;
const first = args.seed ?? Math.floor(Math.random() * 1e9);
const extra = args.with ? readFixtureFile(args.with) : undefined;

console.log(
  `chaos${args.backup ? ' (backup mode)' : ''}: ${runs} run(s) of ${operations} operations with ${kills} kill(s), seeds ${first}${runs > 1 ? `…${first + runs - 1}` : ''}`,
);
const started = Date.now();
const failed: number[] = [];
for (let i = 0; i < runs; i++) {
  const seed = first + i;
  const r = await runChaos({
    seed,
    operations,
    kills,
    ...(args.verbose ? { log: (l: string) => console.log(`  ${l}`) } : {}),
    ...(args.trace ? { trace: args.trace } : {}),
    ...(extra ? { with: extra } : {}),
    ...(args.backup ? { backup: true } : {}),
  });
  console.log(`seed ${seed}: ${r.ok ? 'ok' : 'FAILED'} (${(r.ms / 1000).toFixed(1)} s)`);
  if (!r.ok) {
    failed.push(seed);
    console.log(describeFailure(r));
  }
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`chaos: ${runs} run(s), ${failed.length} failed${failed.length ? ` (seeds ${failed.join(', ')})` : ''}, ${minutes} min`);
process.exitCode = failed.length > 0 ? 1 : 0;
