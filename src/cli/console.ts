// `spacesync console [--dir DIR]… [--port N] [--no-open]`: a local web page for the mirrors on this
// machine (src/console): it prints its address (with the token of this start), opens it in the
// browser when someone sits at the screen, and serves until stopped (Ctrl-C).
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { untilStopSignal, type Wrap } from './types.js';
import { SpacesyncError } from '../errors.js';
import { STATE_DIR } from '../stateDir.js';

interface ConsoleFlags {
  dir: string[];
  port: string;
  open: boolean;
  verbose?: boolean;
}

/** The mirrors shown: the folders given, else those installed as services and the current one (or SPACESYNC_DIR) when it is a mirror. */
async function mirrorsOf(flags: ConsoleFlags): Promise<string[]> {
  const real = (d: string) => (existsSync(d) ? realpathSync(d) : path.resolve(d));
  if (flags.dir.length > 0) return [...new Set(flags.dir.map(real))];
  const { listServices } = await import('../service/installService.js');
  const { systemServiceHost } = await import('../service/serviceHost.js');
  const here = process.env.SPACESYNC_DIR || process.cwd();
  const dirs = [...listServices(systemServiceHost()).map((s) => s.dir), ...(existsSync(path.join(here, STATE_DIR)) ? [here] : [])];
  return [...new Set(dirs.map(real))];
}

export function registerConsole(program: Command, wrap: Wrap): void {
  program
    .command('console')
    .description('a local web page for the mirrors on this machine: state, conflicts, history, budget')
    .option(
      '--dir <dir>',
      'a mirror folder to show (repeat for more; default: the mirrors installed as services, and the current folder when it is one)',
      (d: string, all: string[]) => [...all, d],
      [],
    )
    .option('--port <port>', 'port on 127.0.0.1 (0: any free port)', '0')
    .option('--no-open', 'do not open the page in the browser')
    .option('--verbose', 'say how the page was (or was not) opened')
    .action(
      wrap(async (flags: ConsoleFlags) => {
        const port = Number(flags.port);
        if (flags.port.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
          throw new SpacesyncError('usage', `--port must be a port number from 0 to 65535 (0: any free port), not "${flags.port}".`);
        const dirs = await mirrorsOf(flags);
        if (dirs.length === 0)
          throw new SpacesyncError(
            'usage',
            'No mirror to show: this folder is not one and none is installed as a service. Pass one with --dir DIR (a folder set up with `spacesync init`).',
          );
        const { startConsole } = await import('../console/server.js');
        const running = await startConsole({ dirs, port, onError: (line) => process.stderr.write(`${line}\n`) });
        // Listening for Ctrl-C before the address is out: whoever reads it may stop the console at once.
        const stopped = untilStopSignal();
        const showing = dirs.length === 1 ? dirs[0] : `${dirs.length} mirrors: ${dirs.join(', ')}`;
        process.stdout.write(`spacesync console: ${running.url}\nShowing ${showing}. Ctrl-C stops it.\n`);
        let cleanUp = () => {};
        if (flags.open) {
          const { openBrowser } = await import('../console/openBrowser.js');
          const opened = openBrowser(running.url);
          cleanUp = opened.cleanUp;
          if (flags.verbose) process.stderr.write(`spacesync console: ${opened.said}\n`);
        }
        await stopped;
        await running.close();
        cleanUp();
        return 0;
      }),
    );
}
