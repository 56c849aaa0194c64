// `spacesync server`: serves a space over the Space API from SQLite until stopped, and prints its
// base URL (the one place a link is shown whole: it is the server's own, freshly made).
import type { Command } from 'commander';
import { untilStopSignal, type Wrap } from './types.js';
import { SpacesyncError } from '../errors.js';
import { startServer } from '../server/index.js';

interface ServerFlags {
  port: string;
  host: string;
  data?: string;
  seed?: string;
  link?: string;
  apiKey?: string;
  limits: string;
  limitScale: string;
  timezone?: string;
  admin?: boolean;
  adminAnyHost?: boolean;
  verbose?: boolean;
  sharedSpace?: boolean;
  maxUploadMib?: string;
  publicUrl?: string;
}

function number(value: string, flag: string, check: (n: number) => boolean, what: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new SpacesyncError('usage', `${flag} must be ${what}, not "${value}".`);
  return n;
}

export function registerServer(program: Command, wrap: Wrap): void {
  program
    .command('server')
    .description('serve a space over the Space API, backed by SQLite')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <file>', 'SQLite file to keep the space in (a temporary store, gone when the server stops, when omitted)')
    .option('--seed <fixture>', 'space fixture (JSON) to load into an empty store')
    .option('--public-url <url>', 'the origin clients reach the server at (behind a proxy, or on 0.0.0.0), for signed media URLs and the link')
    .option('--link <id>', 'link id of the base URL (random when omitted)')
    .option('--api-key <key>', 'require this bearer key')
    .option('--limits <mode>', 'rate limits: spec or off', 'spec')
    .option('--limit-scale <factor>', 'multiply every rate-limit window by this factor', '1')
    .option('--timezone <tz>', "the space time zone (default: the seed's, else UTC)")
    .option('--admin', 'serve the test-only admin routes under /__admin/ (they need Authorization: Bearer <admin token>)')
    .option('--admin-any-host', 'allow --admin with a --host other machines can reach')
    .option('--verbose', 'log one line per request')
    .option('--max-upload-mib <MiB>', 'the largest upload POST /upload accepts, in MiB (default 50)')
    .option('--shared-space', 'the link creator is not the only active participant: reminders are unavailable')
    .action(
      wrap(async (flags: ServerFlags) => {
        const port = number(flags.port, '--port', (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port number from 0 to 65535');
        const limitScale = number(flags.limitScale, '--limit-scale', (n) => n > 0, 'a positive number');
        const maxUploadMib =
          flags.maxUploadMib === undefined
            ? undefined
            : number(flags.maxUploadMib, '--max-upload-mib', (n) => n > 0 && n <= 4096, 'a number of MiB above 0, at most 4096');
        if (flags.limits !== 'spec' && flags.limits !== 'off') throw new SpacesyncError('usage', `--limits must be spec or off, not "${flags.limits}".`);
        const server = await startServer({
          port,
          host: flags.host,
          limits: flags.limits,
          limitScale,
          admin: flags.admin === true,
          adminAnyHost: flags.adminAnyHost === true,
          log: flags.verbose === true,
          soleParticipant: flags.sharedSpace !== true,
          ...(flags.data !== undefined ? { dataFile: flags.data } : {}),
          ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
          ...(flags.link !== undefined ? { linkId: flags.link } : {}),
          ...(flags.publicUrl !== undefined ? { publicUrl: flags.publicUrl } : {}),
          ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
          ...(flags.timezone !== undefined ? { timezone: flags.timezone } : {}),
          ...(maxUploadMib !== undefined ? { maxUploadBytes: Math.round(maxUploadMib * 1024 * 1024) } : {}),
        });
        // Listening for the stop signals before the line that tells a caller the server is up: a
        // caller that stops it as soon as it reads the line must find it stopping cleanly (its
        // temporary files removed), not killed by the signal's default action.
        const stopped = untilStopSignal();
        const on = server.origin === server.listenOrigin ? '' : ` (on ${server.listenOrigin})`;
        process.stdout.write(`spacesync server listening: ${server.baseUrl}${on}\n`);
        if (server.adminToken !== undefined) {
          process.stderr.write(
            `spacesync server: warning: the test-only admin routes are on at ${server.adminUrl}: whoever holds the admin credential can reset or replace the space, read it whole and move its clock. Leave out --admin outside tests.\n`,
          );
          // The token is this server's own, freshly made (like the link above); an API key is never printed.
          if (flags.apiKey !== undefined) process.stdout.write('spacesync server admin routes: send "Authorization: Bearer <the API key>".\n');
          else process.stdout.write(`spacesync server admin token: ${server.adminToken} (send "Authorization: Bearer <token>")\n`);
        }
        await stopped;
        await server.close();
        return 0;
      }),
    );
}
