// `spacesync conflicts`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerConflicts(program: Command, wrap: Wrap): void {
  program
    .command('conflicts')
    .description('list conflict copies and the blocks that differ')
    .option('--dir <dir>', 'the mirror folder', '.')
    .option('--json', 'print JSON')
    .action(wrap(async () => notYet('conflicts')));
}
