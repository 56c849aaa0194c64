// `spacesync sync`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerSync(program: Command, wrap: Wrap): void {
  program
    .command('sync')
    .description('two-way sync between the space and the folder (a daemon unless --once)')
    .option('--link <url>', 'connection link (or SPACESYNC_LINK)')
    .option('--dir <dir>', 'the mirror folder', '.')
    .option('--once', 'run one full cycle and exit (0 in sync, 1 error, 2 refused, 3 conflicts)')
    .option('--dry-run', 'show what a cycle would do, change nothing')
    .option('--force', 'override the safety checks (mass delete, empty root)')
    .option('--config <file>', 'config file (default DIR/.spacesync/config.json)')
    .option('--verbose', 'log debug details')
    .action(wrap(async () => notYet('sync')));
}
