// `npm run chaos`: seeded chaos runs against the real server and daemon (chaos.ts).
//   npm run chaos                      one run with a fresh seed (printed)
//   npm run chaos -- --runs 200        200 runs, seeds counting up from a fresh one
//   SEED=1234 npm run chaos            replays seed 1234 (the same space and operations)
//   --ops N (operations per run, default 30), --kills N (daemon kills per run, default 2), --verbose,
//   --trace ID_OR_TITLE (log that document's file and blocks at every change)
//   --with FIXTURE (a space file whose folders and documents join each run's, e.g. fixtures/spaces/live-shapes.json)
import { readFixtureFile } from '../../src/server/index.js';
import { describeFailure, runChaos } from './chaos.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function whole(name: string, fallback: number): number {
  const v = option(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`chaos: ${name} needs a whole number, got "${v}"`);
    process.exit(64);
  }
  return n;
}

// Ctrl-C ends the run; the exit handler of the scenario world kills the daemons it started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const fixed = process.env.SEED;
if (fixed !== undefined && !/^\d+$/.test(fixed)) {
  console.error(`chaos: SEED must be a whole number, got "${fixed}"`);
  process.exit(64);
}
const runs = fixed !== undefined ? 1 : whole('--runs', 1);
const operations = whole('--ops', 30);
const kills = whole('--kills', 2);
const verbose = process.argv.includes('--verbose');
const first = fixed !== undefined ? Number(fixed) : Math.floor(Math.random() * 1e9);

console.log(`chaos: ${runs} run(s) of ${operations} operations with ${kills} kill(s), seeds ${first}${runs > 1 ? `…${first + runs - 1}` : ''}`);
const started = Date.now();
const failed: number[] = [];
for (let i = 0; i < runs; i++) {
  const seed = first + i;
  const trace = option('--trace');
  const extra = option('--with');
  const r = await runChaos({
    seed,
    operations,
    kills,
    ...(verbose ? { log: (l: string) => console.log(`  ${l}`) } : {}),
    ...(trace ? { trace } : {}),
    ...(extra ? { with: readFixtureFile(extra) } : {}),
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
