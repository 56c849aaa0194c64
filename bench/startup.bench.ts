// How long the command line takes to start (it runs through tsx): every command pays this.
import { execFileSync } from 'node:child_process';
import type { Figure } from './figure.js';

export default async function startup(): Promise<Figure[]> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, ['bin/dev.js', '--version']);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return [{ name: 'spacesync --version, median of 5', measured: Math.round(times[2]!), unit: 'ms', target: { op: '<', value: 1000 } }];
}
