// `spacesync service uninstall`: stops and disables the service of one mirror folder and removes
// its unit (or agent) file. The folder and its files are left as they are.
import fs from 'node:fs';
import { SpacesyncError } from '../errors.js';
import { controlOrThrow } from './installService.js';
import { installedService, type InstalledService } from './installedService.js';
import type { ServiceHost } from './serviceHost.js';

export function uninstallService(host: ServiceHost, dir: string): InstalledService {
  const service = installedService(host, dir);
  if (!fs.existsSync(service.file)) {
    throw new SpacesyncError(
      'usage',
      `No spacesync service is installed for ${dir} (no ${service.file}). \`spacesync service status\` lists the installed ones.`,
    );
  }
  const keep = `Nothing was removed; ${service.file} is still there.`;
  if (host.kind === 'systemd') {
    controlOrThrow(host, ['disable', '--now', service.name], keep);
    fs.rmSync(service.file);
    controlOrThrow(host, ['daemon-reload'], `${service.file} was removed.`);
  } else {
    host.control(['bootout', `gui/${host.uid}/${service.name}`]); // not loaded is fine
    fs.rmSync(service.file);
  }
  return service;
}
