// Every mirror folder installed as a service (its unit or agent file in the unit folder), with the
// service manager's word on its state.
import fs from 'node:fs';
import { installedService, type InstalledService } from './installedService.js';
import type { ServiceHost } from './serviceHost.js';
import { unescapeSystemdPath } from './systemdEscapePath.js';

export interface ServiceState extends InstalledService {
  /** systemd: active, inactive, failed, activating…; launchd: running, not running, not loaded. */
  state: string;
}

const SYSTEMD_UNIT = /^spacesync@(.+)\.service$/;
const LAUNCHD_AGENT = /^com\.spacesync\.sync\.(.+)\.plist$/;

export function listServices(host: ServiceHost): ServiceState[] {
  let names: string[];
  try {
    names = fs.readdirSync(host.unitDir);
  } catch {
    return [];
  }
  const pattern = host.kind === 'systemd' ? SYSTEMD_UNIT : LAUNCHD_AGENT;
  const dirs = names
    .flatMap((n) => {
      const m = pattern.exec(n);
      return m ? [unescapeSystemdPath(m[1]!)] : [];
    })
    .sort();
  return dirs.map((dir) => {
    const service = installedService(host, dir);
    return { ...service, state: stateOf(host, service.name) };
  });
}

function stateOf(host: ServiceHost, name: string): string {
  if (host.kind === 'systemd') {
    // is-active exits non-zero for anything but active, and still prints the state.
    return host.control(['is-active', name]).stdout.trim() || 'unknown';
  }
  const r = host.control(['print', `gui/${host.uid}/${name}`]);
  if (r.code !== 0) return 'not loaded';
  return /^\s*state = (.+)$/m.exec(r.stdout)?.[1]?.trim() ?? 'loaded';
}
