// `spacesync service install`: writes the unit (systemd) or agent (launchd) of one mirror folder,
// with the absolute paths of node, spacesync and the folder, then enables and starts it.
import fs from 'node:fs';
import { SpacesyncError } from '../errors.js';
import { installedService, type InstalledService } from './installedService.js';
import { launchdAgent } from './launchdAgent.js';
import type { ControlResult, ServiceHost } from './serviceHost.js';
import type { ServiceTarget } from './serviceTarget.js';
import { systemdUnit } from './systemdUnit.js';
import { configPath } from '../stateDir.js';

/** Throws a clear error when the service manager refused a step. */
export function controlOrThrow(host: ServiceHost, args: readonly string[], what: string): ControlResult {
  const r = host.control(args);
  if (r.code !== 0) {
    const tool = host.kind === 'systemd' ? 'systemctl --user' : 'launchctl';
    const said = (r.stderr || r.stdout).trim();
    throw new SpacesyncError('service_failed', `${tool} ${args.join(' ')} failed (exit ${r.code})${said ? `: ${said}` : ''}. ${what}`);
  }
  return r;
}

export function installService(host: ServiceHost, target: ServiceTarget): InstalledService {
  if (!fs.existsSync(configPath(target.dir))) {
    throw new SpacesyncError(
      'usage',
      `${target.dir} is not a spacesync mirror (no .spacesync/config.json). Connect it first: spacesync init ${target.dir} --link URL, then install the service again.`,
    );
  }
  const service = installedService(host, target.dir);
  fs.mkdirSync(host.unitDir, { recursive: true });
  const text = host.kind === 'systemd' ? systemdUnit(target) : launchdAgent(target);
  fs.writeFileSync(service.file, text, { mode: 0o644 });
  const undo = `The unit file ${service.file} was written; \`spacesync service uninstall --dir ${target.dir}\` removes it.`;
  if (host.kind === 'systemd') {
    controlOrThrow(host, ['daemon-reload'], undo);
    // restart, not start: a reinstall (a new node or spacesync path) takes effect at once.
    controlOrThrow(host, ['enable', service.name], undo);
    controlOrThrow(host, ['restart', service.name], undo);
  } else {
    const domain = `gui/${host.uid}`;
    host.control(['bootout', `${domain}/${service.name}`]); // an earlier install of this folder; absent is fine
    controlOrThrow(host, ['bootstrap', domain, service.file], undo);
  }
  return service;
}
