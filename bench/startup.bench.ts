// What starting the installed command costs, against Node.js starting with nothing to do, in the
// same run: `spacesync --version` (the compiled dist/, no tsx) beside `node -e 0`, interleaved, its
// wall time and its peak resident set. `--help` (which loads every command) is shown for context.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { builtCommand } from './builtCommand.js';
import { benchTempDir, type Figure } from './figure.js';

const RUNS = 11;
/**
 * Loaded before the command: writes the process's peak RSS (KiB) to the file named by the
 * environment when it exits. VmHWM, not getrusage's maxRSS: the latter starts from the forking
 * parent's resident set (this benchmark's process), which would be counted as the command's.
 */
const PEAK_RSS_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import { readFileSync, writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(process.env.SPACESYNC_BENCH_RSS_FILE, /^VmHWM:\\s+(\\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]));",
)}`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function startup(): Promise<Figure[]> {
  const bin = builtCommand();
  const tmp = benchTempDir('startup');
  const rssFile = path.join(tmp, 'rss');
  const commands = { node: ['-e', '0'], version: [bin, '--version'], help: [bin, '--help'] };
  const wall: Record<keyof typeof commands, number[]> = { node: [], version: [], help: [] };
  const peak: Record<keyof typeof commands, number[]> = { node: [], version: [], help: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const [name, args] of Object.entries(commands) as Array<[keyof typeof commands, string[]]>) {
        const t0 = performance.now();
        execFileSync(process.execPath, args, { stdio: 'ignore' });
        wall[name].push(performance.now() - t0);
        execFileSync(process.execPath, ['--import', PEAK_RSS_PRELOAD, ...args], {
          stdio: 'ignore',
          env: { ...process.env, SPACESYNC_BENCH_RSS_FILE: rssFile },
        });
        peak[name].push(Number(fs.readFileSync(rssFile, 'utf8')) / 1024);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const w = (n: keyof typeof commands) => median(wall[n]);
  const m = (n: keyof typeof commands) => median(peak[n]);
  const note = `medians of ${RUNS}, interleaved: ${w('version').toFixed(0)} ms against node -e 0's ${w('node').toFixed(0)} ms; ${m('version').toFixed(1)} MiB against ${m('node').toFixed(1)} MiB`;
  return [
    {
      name: 'spacesync --version ÷ node -e 0: wall time',
      measured: Number((w('version') / w('node')).toFixed(2)),
      unit: '×',
      target: { op: '<=', value: 1.5 },
      note,
    },
    {
      name: 'spacesync --version ÷ node -e 0: peak RSS',
      measured: Number((m('version') / m('node')).toFixed(2)),
      unit: '×',
      target: { op: '<=', value: 1.3 },
      note,
    },
    {
      name: 'spacesync --help (loads every command) ÷ node -e 0: wall time',
      measured: Number((w('help') / w('node')).toFixed(2)),
      unit: '×',
      note: `${w('help').toFixed(0)} ms, ${m('help').toFixed(1)} MiB peak`,
    },
  ];
}
