// `spacesync status`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerStatus(program: Command, wrap: Wrap): void {
  program
    .command('status')
    .description('last cycle, pending changes, conflicts, budget use, errors')
    .option('--dir <dir>', 'the mirror folder', '.')
    .option('--json', 'print JSON')
    .action(wrap(async () => notYet('status')));
}
