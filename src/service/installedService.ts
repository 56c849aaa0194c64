// One mirror folder installed as a service: its unit (or agent) name and file, and the command
// that follows its log.
import path from 'node:path';
import { launchdLabel } from './launchdAgent.js';
import type { ServiceHost } from './serviceHost.js';
import { systemdUnitName } from './systemdUnit.js';
import { statePath } from '../stateDir.js';

export interface InstalledService {
  dir: string;
  /** spacesync@….service, or the launchd label. */
  name: string;
  file: string;
  /** The shell command that follows the service's log. */
  followLog: string;
}

const shq = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function installedService(host: ServiceHost, dir: string): InstalledService {
  if (host.kind === 'systemd') {
    const name = systemdUnitName(dir);
    return { dir, name, file: path.join(host.unitDir, name), followLog: `journalctl --user -u ${shq(name)} -f` };
  }
  const name = launchdLabel(dir);
  return { dir, name, file: path.join(host.unitDir, `${name}.plist`), followLog: `tail -f ${shq(`${statePath(dir, 'launchd')}.err.log`)}` };
}
