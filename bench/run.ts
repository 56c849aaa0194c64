// Runs every benchmark in bench/*.bench.ts (or those named on the command line), prints each
// figure as it comes, and writes bench/REPORT.md: figure, target, measured, ratio, machine, date.
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { meets, ratio, type Benchmark, type Figure } from './figure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort()
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)));

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 3 : 1));
const rows: Array<{ bench: string; figure: Figure }> = [];
let failed = 0;

for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  process.stdout.write(`\n# ${name}\n`);
  try {
    const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { default: Benchmark };
    for (const figure of await mod.default()) {
      rows.push({ bench: name, figure });
      const ok = meets(figure);
      const target = figure.target ? ` (target ${figure.target.op} ${fmt(figure.target.value)})` : '';
      process.stdout.write(`  ${figure.name}: ${fmt(figure.measured)} ${figure.unit}${target}${ok === false ? '  MISSED' : ''}${figure.note ? `  — ${figure.note}` : ''}\n`);
    }
  } catch (e) {
    failed++;
    process.stdout.write(`  FAILED: ${(e as Error).stack ?? e}\n`);
  }
}

if (only.length === 0) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmark report',
    '',
    `Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    'Produced by `npm run bench`; ratio = measured ÷ target.',
    '',
    '| benchmark | figure | target | measured | ratio | met |',
    '|---|---|---|---|---|---|',
    ...rows.map(({ bench, figure: f }) => {
      const r = ratio(f);
      const ok = meets(f);
      return `| ${bench} | ${f.name}${f.note ? ` (${f.note})` : ''} | ${f.target ? `${f.target.op} ${fmt(f.target.value)} ${f.unit}` : '—'} | ${fmt(f.measured)} ${f.unit} | ${r === undefined ? '—' : r.toFixed(2)} | ${ok === undefined ? '—' : ok ? 'yes' : 'no'} |`;
    }),
    '',
  ];
  writeFileSync(path.join(here, 'REPORT.md'), lines.join('\n'));
  process.stdout.write(`\nwrote bench/REPORT.md (${rows.length} figures${failed ? `, ${failed} benchmark(s) failed` : ''})\n`);
}
process.exitCode = failed ? 1 : 0;
