// The services of mirror folders: install, list, uninstall. `spacesync service install` writes the unit (systemd) or
// agent (launchd) of one mirror folder, with the absolute paths of node, spacesync and the folder, then enables and starts it.
import fs from 'node:fs';
import { SpacesyncError } from '../errors.js';
import { launchdAgent, launchdLabel } from './launchdAgent.js';
import type { ControlResult, ServiceHost, ServiceTarget } from './serviceHost.js';
import { systemdUnit, systemdUnitName, unescapeSystemdPath } from './systemdUnit.js';
import { configPath, statePath } from '../stateDir.js';
import path from 'node:path';

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

// One mirror folder installed as a service: its unit (or agent) name and file, and the command
// that follows its log.
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

// Every mirror folder installed as a service (its unit or agent file in the unit folder), with the
// service manager's word on its state.
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

// `spacesync service uninstall`: stops and disables the service of one mirror folder and removes
// its unit (or agent) file. The folder and its files are left as they are. The files go even when
// the service manager cannot be reached (no user bus in an ssh session or a container, where
// `service install` could still write them): what could not be done is then said, with the
// commands that finish it, and the command fails.
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
