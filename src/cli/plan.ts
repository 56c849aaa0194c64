// `spacesync plan`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerPlan(program: Command, wrap: Wrap): void {
  program
    .command('plan')
    .description('print what a sync cycle would do, changing nothing')
    .option('--dir <dir>', 'the mirror folder', '.')
    .option('--json', 'print JSON')
    .action(wrap(async () => notYet('plan')));
}
