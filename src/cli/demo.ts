// `spacesync demo`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerDemo(program: Command, wrap: Wrap): void {
  program
    .command('demo')
    .description('a local server with a sample space, synced into DIR')
    .argument('[dir]', 'the mirror folder', './demo-space')
    .action(wrap(async () => notYet('demo')));
}
