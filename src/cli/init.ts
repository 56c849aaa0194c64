// `spacesync init`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerInit(program: Command, wrap: Wrap): void {
  program
    .command('init')
    .description('check a connection link and write DIR/.spacesync/config.json')
    .argument('<dir>', 'the folder to mirror into')
    .requiredOption('--link <url>', 'connection link of the space')
    .option('--api-key <key>', 'API key, when the link needs one')
    .action(wrap(async () => notYet('init')));
}
