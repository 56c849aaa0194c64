// A command run as its own process, as a user runs it, with what it cost read by the process
// itself as it exits: the kernel's high-water mark of its resident set and its CPU time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { builtCommand } from './builtCommand.js';

/**
 * Loaded before the command: writes the process's peak RSS (KiB) and CPU time (µs, every thread)
 * to the file named by the environment when it exits. VmHWM, not getrusage's maxRSS: the latter
 * starts from the forking parent's resident set (the benchmark's process), which would be counted
 * as the command's.
 */
const MEASURE_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { readFileSync, writeFileSync } from 'node:fs'; process.on('exit', () => { const cpu = process.cpuUsage(); writeFileSync(process.env.SPACESYNC_BENCH_MEASURE_FILE, JSON.stringify({ peakKiB: Number(/^VmHWM:\\s+(\\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]), cpuMicros: cpu.user + cpu.system })); });",
)}`;

export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  peakMiB: number;
  cpuSeconds: number;
  /** Wall time, process start included. */
  seconds: number;
}

/** Runs `node dist/cli/bin.js ...args` (or `node ...nodeArgs ...args`) measured; resolves when it exited. `file` holds the measure meanwhile. */
export async function runMeasured(args: readonly string[], file: string, nodeArgs: readonly string[] = [builtCommand()]): Promise<MeasuredRun> {
  fs.rmSync(file, { force: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', MEASURE_PRELOAD, ...nodeArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SPACESYNC_BENCH_MEASURE_FILE: file },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  const seconds = (performance.now() - t0) / 1000;
  if (!fs.existsSync(file)) throw new Error(`${[...nodeArgs, ...args].join(' ')} exited with ${code} without reporting what it cost: ${stderr.trim()}`);
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as { peakKiB: number; cpuMicros: number };
  return { code, stdout, stderr, peakMiB: m.peakKiB / 1024, cpuSeconds: m.cpuMicros / 1e6, seconds };
}

/** The request count `spacesync sync` prints ("… (10013 requests)"), or "?". */
export const requestsOf = (stdout: string) => /\((\d+) requests\)/.exec(stdout)?.[1] ?? '?';
