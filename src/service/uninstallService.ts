// `spacesync service uninstall`: stops and disables the service of one mirror folder and removes
// its unit (or agent) file. The folder and its files are left as they are. The files go even when
// the service manager cannot be reached (no user bus in an ssh session or a container, where
// `service install` could still write them): what could not be done is then said, with the
// commands that finish it, and the command fails.
import fs from 'node:fs';
import path from 'node:path';
import { SpacesyncError } from '../errors.js';
import { installedService, type InstalledService } from './installedService.js';
import type { ControlResult, ServiceHost } from './serviceHost.js';

/** The link `systemctl --user enable` made for the unit (its [Install] section: WantedBy=default.target). */
const wantsLink = (host: ServiceHost, name: string) => path.join(host.unitDir, 'default.target.wants', name);

/** "systemctl --user failed (exit 1: Failed to connect to bus)". */
function failure(host: ServiceHost, r: ControlResult): string {
  const tool = host.kind === 'systemd' ? 'systemctl --user' : 'launchctl';
  const said = (r.stderr || r.stdout).trim();
  return `${tool} failed (exit ${r.code}${said ? `: ${said}` : ''})`;
}

/** launchctl's answer for a service that is not loaded: nothing to boot out. */
const notLoaded = (r: ControlResult) => r.code === 3 || r.code === 113 || /no such process|could not find (specified )?service/i.test(`${r.stderr}${r.stdout}`);

export function uninstallService(host: ServiceHost, dir: string): InstalledService {
  const service = installedService(host, dir);
  if (!fs.existsSync(service.file)) {
    throw new SpacesyncError(
      'usage',
      `No spacesync service is installed for ${dir} (no ${service.file}). \`spacesync service status\` lists the installed ones.`,
    );
  }
  if (host.kind === 'systemd') {
    const disabled = host.control(['disable', '--now', service.name]);
    if (disabled.code !== 0) {
      // What `disable` would have removed, removed by hand: the enablement link, then the unit.
      const link = wantsLink(host, service.name);
      const linked = fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() === true;
      if (linked) fs.rmSync(link);
      fs.rmSync(service.file);
      throw new SpacesyncError(
        'service_failed',
        `Removed the unit file ${service.file}${linked ? ` and its link ${link}` : ''}; could not stop or disable ${service.name}: ${failure(host, disabled)}. ` +
          `If it is running, run \`systemctl --user stop '${service.name}'; systemctl --user daemon-reload\` when a user session is available (a login of this user, where systemctl --user answers).`,
      );
    }
    fs.rmSync(service.file);
    const reloaded = host.control(['daemon-reload']);
    if (reloaded.code !== 0) {
      throw new SpacesyncError(
        'service_failed',
        `Stopped and disabled ${service.name} and removed its unit file ${service.file}; could not reload the user manager: ${failure(host, reloaded)}. Run \`systemctl --user daemon-reload\` to forget the unit.`,
      );
    }
  } else {
    const target = `gui/${host.uid}/${service.name}`;
    const out = host.control(['bootout', target]);
    fs.rmSync(service.file);
    if (out.code !== 0 && !notLoaded(out)) {
      throw new SpacesyncError(
        'service_failed',
        `Removed the agent file ${service.file}; could not unload ${service.name}: ${failure(host, out)}. If it is running, run \`launchctl bootout ${target}\` when a user session is available (a login of this user at the Mac).`,
      );
    }
  }
  return service;
}
