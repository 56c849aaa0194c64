// `spacesync server`: placeholder until its issue lands; it fails with a clear message.
import type { Command } from 'commander';
import type { Wrap } from './program.js';
import { notYet } from './notYet.js';

export function registerServer(program: Command, wrap: Wrap): void {
  program
    .command('server')
    .description('serve a space over the Space API, backed by SQLite')
    .option('--port <port>', 'port to listen on', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <file>', 'SQLite file to keep the space in (in memory when omitted)')
    .option('--seed <fixture>', 'space fixture (JSON) to load into an empty store')
    .option('--link <id>', 'link id of the base URL (random when omitted)')
    .option('--api-key <key>', 'require this bearer key')
    .option('--limits <mode>', 'rate limits: spec or off', 'spec')
    .option('--limit-scale <factor>', 'multiply every rate-limit window by this factor', '1')
    .option('--timezone <tz>', 'the space time zone', 'UTC')
    .action(wrap(async () => notYet('server')));
}
