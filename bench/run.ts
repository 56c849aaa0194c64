// Runs every benchmark in bench/*.bench.ts but the slow ones of ON_REQUEST (or those named on the
// command line, or every one with --all), each in a process of its own (nothing one leaves in
// memory or the JIT weighs on the next; one that hangs is killed with everything it started),
// prints each figure, and — when no name was given — writes bench/REPORT.md: figure, target,
// measured, ratio, met, with the machine, the date and the other work the machine was doing
// meanwhile. Also checks that each benchmark cleaned up: no process left running, no
// `spacesync-bench-<run>-*` temp folder left behind (only this run's: a concurrent run's are not its business).
//   node bin/run-ts.js bench/run.ts [NAME…] [--all] [--timeout=SECONDS]   (per benchmark; 1200 by default, as the
//   idle benchmark watches the daemon idle for 10 minutes)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chooseBenches, ON_REQUEST } from './chooseBenches.js';
import { meets, ratio, type Benchmark, type Figure } from './figure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);
const args = process.argv.slice(2);
/** This run's id, handed to each benchmark so its temp folders are told from a concurrent run's. */
const RUN_ID = process.env.SPACESYNC_BENCH_RUN ?? String(process.pid);
const TEMP_PREFIX = `spacesync-bench-${RUN_ID}-`;
/** How long a benchmark's process may take to exit after it returned its figures. */
const EXIT_GRACE_MS = 15_000;

/** What a benchmark's process hands the parent on fd 3: one JSON line. */
type ChildResult = { figures: Figure[] } | { error: string };

/** `--child FILE`: runs one benchmark and hands its figures (or its error) to the parent. */
async function child(file: string): Promise<void> {
  let result: ChildResult;
  try {
    const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { default: Benchmark };
    result = { figures: await mod.default() };
  } catch (e) {
    result = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    process.exitCode = 1;
  }
  writeSync(3, `${JSON.stringify(result)}\n`);
  // No process.exit: the process ends only when the benchmark closed everything it opened.
}

interface Outcome {
  bench: string;
  figures: Figure[];
  seconds: number;
  /** Cores' worth of CPU the rest of the machine used meanwhile; undefined where /proc is missing. */
  otherCores: number | undefined;
  error?: string;
  /** Cleanup problems: processes or temp folders left behind. */
  problems: string[];
}

/** CPU ticks (USER_HZ) the machine spent busy, and this process with its waited-for children (Linux only). */
function cpuTicks(): { busy: number; ours: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const busy = cpu[0]! + cpu[1]! + cpu[2]! + (cpu[5] ?? 0) + (cpu[6] ?? 0) + (cpu[7] ?? 0);
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields 14–17 of proc(5): utime, stime, cutime, cstime (f[0] is field 3).
    return { busy, ours: f[11]! + f[12]! + f[13]! + f[14]! };
  } catch {
    return undefined;
  }
}
const TICKS_PER_SECOND = 100;

const benchTemps = () => new Set(readdirSync(os.tmpdir()).filter((n) => n.startsWith(TEMP_PREFIX)));

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

let current: number | undefined;

/** Runs one benchmark file in its own process group. */
async function runOne(file: string, timeoutMs: number): Promise<Outcome> {
  const bench = file.replace(/\.bench\.ts$/, '');
  const tempsBefore = benchTemps();
  const ticksBefore = cpuTicks();
  const t0 = performance.now();
  const proc = spawn(process.execPath, [path.join(repo, 'bin', 'run-ts.js'), path.join(here, 'run.ts'), '--child', file], {
    cwd: repo,
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    detached: true,
    env: { ...process.env, SPACESYNC_BENCH_RUN: RUN_ID },
  });
  current = proc.pid;
  const problems: string[] = [];
  /** Killed for taking too long: what it left behind is not a cleanup problem of its own. */
  let killed = false;
  /** Killed for not exiting: that is the problem to report, not the processes it kept. */
  let stuck = false;
  let output = '';
  let error: string | undefined;
  proc.stdio[3]!.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  // The result is one line; processes the benchmark started may hold the pipe open after it.
  const piped = new Promise<void>((resolve) => {
    proc.stdio[3]!.on('data', () => output.includes('\n') && resolve());
    proc.stdio[3]!.on('close', () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const first = await Promise.race([piped.then(() => 'returned' as const), timedOut]);
  if (first === 'timeout') {
    error = `did not finish within ${timeoutMs / 1000} s: killed with every process it started`;
    killed = true;
    killGroup(proc.pid!);
    await exited;
  } else {
    const exitTimer = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), EXIT_GRACE_MS).unref());
    const code = await Promise.race([exited, exitTimer]);
    if (code === 'stuck') {
      problems.push(`its process did not exit ${EXIT_GRACE_MS / 1000} s after returning its result (a server, timer or socket left open): killed`);
      stuck = true;
      killGroup(proc.pid!);
      await exited;
    } else if (code !== 0 && !output) {
      error = `its process exited with ${code} without a result (see its output above)`;
    }
  }
  clearTimeout(timer);
  const seconds = (performance.now() - t0) / 1000;
  const ticksAfter = cpuTicks();
  current = undefined;
  // Processes it stopped may take a moment to go (and to be reaped once orphaned).
  for (let i = 0; i < 40 && groupAlive(proc.pid!); i++) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(proc.pid!)) {
    if (!killed && !stuck) problems.push('left processes running after it exited: killed');
    killGroup(proc.pid!);
  }
  const leftTemps = [...benchTemps()].filter((n) => !tempsBefore.has(n));
  if (leftTemps.length > 0) {
    if (!killed) problems.push(`left temp folders (removed): ${leftTemps.map((n) => path.join(os.tmpdir(), n)).join(', ')}`);
    for (const n of leftTemps) rmSync(path.join(os.tmpdir(), n), { recursive: true, force: true });
  }
  let figures: Figure[] = [];
  if (output) {
    const result = JSON.parse(output.slice(0, output.indexOf('\n'))) as ChildResult;
    if ('error' in result) error ??= result.error;
    else figures = result.figures;
  } else error ??= 'its process ended without a result (see its output above)';
  const otherCores =
    ticksBefore && ticksAfter && seconds > 0
      ? Math.max(0, ticksAfter.busy - ticksBefore.busy - (ticksAfter.ours - ticksBefore.ours)) / TICKS_PER_SECOND / seconds
      : undefined;
  return { bench, figures, seconds, otherCores, ...(error ? { error } : {}), problems };
}

/** Up to three decimals, trailing zeros dropped: 0.998, 1.05, 13.6, 2047. */
const fmt = (n: number) => String(Number(n.toFixed(Math.abs(n) < 10 ? 3 : 1)));
/** Ratios read as "0.998×"; other units after a space. */
const withUnit = (n: number, unit: string) => (unit === 'ratio' || unit === '×' ? `${fmt(n)}×` : `${fmt(n)} ${unit}`);
const firstLine = (s: string) => s.split('\n')[0]!;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const opText: Record<NonNullable<Figure['target']>['op'], string> = { '<=': '≤', '>=': '≥', '<': '<', '>': '>', '=': '=' };
const targetText = (f: Figure) => (f.target ? `${opText[f.target.op]} ${withUnit(f.target.value, f.unit)}` : '—');

function printFigure(f: Figure): void {
  const ok = meets(f);
  const target = f.target ? ` (target ${targetText(f)})` : '';
  process.stdout.write(`  ${f.name}: ${withUnit(f.measured, f.unit)}${target}${ok === false ? '  MISSED' : ''}${f.note ? `  — ${f.note}` : ''}\n`);
}

/**
 * The figures the report leads with, found by benchmark and name. A benchmark that renames one
 * shows here as "not measured", so the headline never silently loses a figure.
 */
const HEADLINES: ReadonlyArray<{ label: string; bench: string; match: RegExp }> = [
  { label: 'initial pull of 500 documents × 40 blocks: wall time ÷ the rate-limit bound', bench: 'pull', match: /^initial pull: wall time ÷ rate-limit bound/ },
  { label: 'initial pull: requests ÷ (documents + folders + locations)', bench: 'pull', match: /^initial pull \S+: requests ÷/ },
  { label: 'idle poll: requests per cycle', bench: 'pull', match: /^idle poll: requests/ },
  {
    label: 'one-block edit in a 1,000-block document: blocks written (a naive full rewrite in the notes)',
    bench: 'push',
    match: /^one-block edit: blocks written/,
  },
  { label: 'one-block edit: requests, the listing included', bench: 'push', match: /^one-block edit: all requests/ },
  { label: 'save → service latency through the daemon, p50', bench: 'push', match: /^save → service .*p50/ },
  { label: 'remote change → file latency through the daemon, p50', bench: 'latency', match: /^remote change → file updated, daemon polling .*p50/ },
  { label: 'remote change → file: requests', bench: 'pull', match: /^one remote block change → file updated: requests/ },
  { label: 'dialect: segment a 10,000-block file', bench: 'dialect', match: /^segmentFile of a 10,000-block/ },
  { label: 'dialect: render a 10,000-block document', bench: 'dialect', match: /^renderFileBody of a 10,000-block/ },
  { label: 'diff + merge + plan of 10,000 blocks, 1 change', bench: 'diff', match: /10,000 blocks, 1 scattered change, median/ },
  { label: 'diff + merge + plan of 10,000 blocks, 100 changes', bench: 'diff', match: /10,000 blocks, 100 scattered changes, median/ },
  { label: 'peak RSS of a sync mirroring 10,000 documents', bench: 'rss', match: /^first sync --once .*peak RSS/ },
  {
    label: 'first pull of 200 documents with 200 images, limitScale 0.05: wall time ÷ the rate-limit bound',
    bench: 'media',
    match: /^first pull .* images .*limitScale 0\.05: wall time ÷ rate-limit bound/,
  },
  { label: 'first pull with images: downloads per asset', bench: 'media', match: /^first pull with images: downloads per asset/ },
];

const HEADER = ['| figure | target | measured | ratio | met | notes |', '|---|---|---|---|---|---|'];

function row(name: string, f: Figure | undefined): string {
  if (!f) return `| ${cell(name)} | — | not measured | — | **no** | the benchmark failed or no longer prints this figure |`;
  const r = ratio(f);
  const ok = meets(f);
  return `| ${cell(name)} | ${targetText(f)} | ${withUnit(f.measured, f.unit)} | ${r === undefined ? '—' : r.toFixed(2)} | ${ok === undefined ? '—' : ok ? 'yes' : '**no**'} | ${cell(f.note ?? '')} |`;
}

function report(outcomes: Outcome[], started: Date, totalSeconds: number, skipped: readonly string[]): string {
  const rows = outcomes.flatMap((o) => o.figures.map((f) => ({ bench: o.bench, f })));
  const targeted = rows.filter((r) => r.f.target);
  const missed = targeted.filter((r) => meets(r.f) === false);
  const failed = outcomes.filter((o) => o.error);
  const problems = outcomes.flatMap((o) => o.problems.map((p) => `- \`${o.bench}\` ${p}`));
  const measured = outcomes.filter((o) => o.otherCores !== undefined);
  const cores = os.cpus().length;
  const meanOther = measured.length ? measured.reduce((n, o) => n + o.otherCores! * o.seconds, 0) / measured.reduce((n, o) => n + o.seconds, 0) : undefined;
  const busiest = measured.reduce<Outcome | undefined>((m, o) => (!m || o.otherCores! > m.otherCores! ? o : m), undefined);
  const noise =
    meanOther === undefined
      ? 'The other work on the machine was not measured (no /proc).'
      : meanOther >= 0.25
        ? `**Other work was running on the machine**: on average ${meanOther.toFixed(2)} of its ${cores} cores were busy with it (${busiest!.otherCores!.toFixed(2)} during \`${busiest!.bench}\`), so times are slower and noisier than on an idle machine. The ratios that matter are measured within one run: a pull against the budget bound of the same run, an edit against a rewrite of the same document, the sync's share of a latency against the poll it waited for.`
        : `The machine was otherwise quiet: other work used ${meanOther.toFixed(2)} of its ${cores} cores on average.`;
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    '# Benchmark report',
    '',
    `Run on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench\` in ${(totalSeconds / 60).toFixed(1)} min: ${cores} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    noise,
    '',
    `${rows.length} figures from ${outcomes.length} benchmarks; ${targeted.length} have a target: ${targeted.length - missed.length} met, ${missed.length} missed${missed.length ? ` (${missed.map((r) => `\`${r.bench}\`: ${r.f.name}`).join('; ')})` : ''}.${failed.length ? ` ${failed.length} benchmark(s) failed: ${failed.map((o) => `\`${o.bench}\` ${firstLine(o.error!)}`).join('; ')}.` : ''}`,
    'Ratio = measured ÷ target: below 1 is within a ≤ or < target, above 1 within a ≥ or > one. What each figure means and how it is measured: `docs/benchmarks.md`.',
    ...(skipped.length ? [`Not run (slow; \`npm run bench -- --all\` or by name): ${skipped.map((b) => `\`${b}\` (${ON_REQUEST[b]})`).join(', ')}.`] : []),
    '',
    '## Headline figures',
    '',
    ...HEADER,
    ...HEADLINES.map((h) => row(h.label, rows.find((r) => r.bench === h.bench && h.match.test(r.f.name))?.f)),
    '',
    '## All figures',
    '',
    `| benchmark ${HEADER[0]}`,
    `|---${HEADER[1]}`,
    ...rows.map(({ bench, f }) => `| ${bench} ${row(f.name, f)}`),
    '',
    '## Runs',
    '',
    'Each benchmark ran in its own process; "other work" is the CPU the rest of the machine used meanwhile, in cores.',
    '',
    '| benchmark | wall time | other work | result |',
    '|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| ${o.bench} | ${o.seconds.toFixed(1)} s | ${o.otherCores === undefined ? '—' : `${o.otherCores.toFixed(2)} cores`} | ${o.error ? `failed: ${cell(firstLine(o.error))}` : `${o.figures.length} figure${o.figures.length === 1 ? '' : 's'}`} |`,
    ),
    '',
  ];
  if (problems.length) lines.push('## Cleanup problems', '', ...problems, '');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const timeoutArg = args.find((a) => a.startsWith('--timeout='));
  const timeoutMs = (timeoutArg ? Number(timeoutArg.slice('--timeout='.length)) : 1200) * 1000;
  if (!(timeoutMs > 0)) throw new Error(`--timeout must be a number of seconds, not ${timeoutArg}`);
  const benches = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.replace(/\.bench\.ts$/, ''));
  const { chosen, skipped, named } = chooseBenches(benches, args);
  const files = chosen.map((b) => `${b}.bench.ts`);
  if (files.length === 0) throw new Error(`no benchmark named ${args.filter((a) => !a.startsWith('-')).join(', ')} in bench/`);
  if (skipped.length) process.stdout.write(`not run (slow; name it or pass --all): ${skipped.map((b) => `${b} (${ON_REQUEST[b]})`).join(', ')}\n`);

  const onSignal = (signal: NodeJS.Signals) => {
    if (current !== undefined) killGroup(current);
    process.stdout.write(`\nstopped by ${signal}; bench/REPORT.md not written\n`);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const started = new Date();
  const t0 = performance.now();
  const outcomes: Outcome[] = [];
  for (const file of files) {
    const name = file.replace(/\.bench\.ts$/, '');
    process.stdout.write(`\n# ${name}\n`);
    const o = await runOne(file, timeoutMs);
    outcomes.push(o);
    for (const f of o.figures) printFigure(f);
    if (o.error) process.stdout.write(`  FAILED: ${o.error}\n`);
    for (const p of o.problems) process.stdout.write(`  CLEANUP: ${p}\n`);
    const other = o.otherCores === undefined ? '' : `, other work on the machine ${o.otherCores.toFixed(2)} cores`;
    process.stdout.write(`  (${o.seconds.toFixed(1)} s${other})\n`);
  }
  const totalSeconds = (performance.now() - t0) / 1000;
  const failed = outcomes.filter((o) => o.error || o.problems.length > 0).length;
  if (!named) {
    writeFileSync(path.join(here, 'REPORT.md'), report(outcomes, started, totalSeconds, skipped));
    const figures = outcomes.reduce((n, o) => n + o.figures.length, 0);
    process.stdout.write(
      `\nwrote bench/REPORT.md (${figures} figures in ${(totalSeconds / 60).toFixed(1)} min${failed ? `, ${failed} benchmark(s) failed or did not clean up` : ''})\n`,
    );
  }
  process.exitCode = failed ? 1 : 0;
}

const childIndex = args.indexOf('--child');
if (childIndex >= 0) await child(args[childIndex + 1]!);
else await main();
