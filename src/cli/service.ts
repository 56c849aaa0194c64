// `spacesync service install|uninstall|status`: the daemon of a mirror folder as a systemd user
// service or a launchd agent, started with the session, one per folder.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { SpacesyncError } from '../errors.js';
import { installService, listServices, type ServiceState, uninstallService } from '../service/installService.js';
import { systemServiceHost } from '../service/serviceHost.js';
import type { Wrap } from './types.js';

interface DirFlags {
  dir?: string;
}

/** The folder as an absolute, real path: what the service runs in, whatever the user typed. */
function mirrorDir(flags: DirFlags): string {
  const given = flags.dir ?? process.env.SPACESYNC_DIR;
  if (!given) throw new SpacesyncError('usage', 'Which folder? Give the mirror folder with --dir DIR.');
  const abs = path.resolve(given);
  if (!fs.existsSync(abs)) throw new SpacesyncError('usage', `The folder ${abs} does not exist. Connect it first: spacesync init ${abs} --link URL.`);
  return fs.realpathSync(abs);
}

/** One line per installed service: its state, the folder, the unit. */
export function formatServices(services: readonly ServiceState[]): string[] {
  if (services.length === 0) return ['No mirror is installed as a service. Install one with: spacesync service install --dir DIR'];
  const width = Math.max(...services.map((s) => s.state.length));
  return services.map((s) => `${s.state.padEnd(width)}  ${s.dir}  (${s.name})`);
}

/** `spacesync status` outside a mirror: the installed services (text or JSON), or undefined when there are none. */
export function installedServicesStatus(json: boolean): string | undefined {
  const services = listServices(systemServiceHost());
  if (services.length === 0) return undefined;
  return json
    ? JSON.stringify({ services: services.map(({ dir, name, state, file }) => ({ dir, name, state, file })) }, null, 2)
    : formatServices(services).join('\n');
}

export function registerService(program: Command, wrap: Wrap): void {
  const service = program.command('service').description('run the daemon of a folder as a service started with your session (systemd, launchd)');
  service
    .command('install')
    .description('write, enable and start the service of a mirror folder (one per folder)')
    .requiredOption('--dir <dir>', 'the mirror folder')
    .action(
      wrap(async (flags: DirFlags) => {
        const dir = mirrorDir(flags);
        // The absolute paths of this node and this spacesync: the service manager needs no PATH.
        const installed = installService(systemServiceHost(), { node: process.execPath, script: fs.realpathSync(process.argv[1]!), dir });
        process.stdout.write(
          [
            `Installed ${installed.name} for ${dir}: started now and at every login (${installed.file}).`,
            `Follow its log:  ${installed.followLog}`,
            `Its state:       spacesync service status   (the mirror's: spacesync status --dir ${dir})`,
            `Remove it:       spacesync service uninstall --dir ${dir}`,
          ].join('\n') + '\n',
        );
        return 0;
      }),
    );
  service
    .command('uninstall')
    .description('stop, disable and remove the service of a mirror folder (the files stay)')
    .requiredOption('--dir <dir>', 'the mirror folder')
    .action(
      wrap(async (flags: DirFlags) => {
        const given = flags.dir ?? '';
        const dir = fs.existsSync(given) ? fs.realpathSync(given) : path.resolve(given);
        const removed = uninstallService(systemServiceHost(), dir);
        process.stdout.write(`Stopped and removed ${removed.name}; the files in ${dir} stay as they are.\n`);
        return 0;
      }),
    );
  service
    .command('status')
    .description('every mirror folder installed as a service, one line each')
    .action(
      wrap(async () => {
        process.stdout.write(`${formatServices(listServices(systemServiceHost())).join('\n')}\n`);
        return 0;
      }),
    );
}
