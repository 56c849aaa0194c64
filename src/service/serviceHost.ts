// Where and how services are installed: the kind of service manager, the folder its unit files
// live in, and how its control command (systemctl --user / launchctl) is run. Injected, so tests
// use a temporary folder and a recording control command instead of the real ones.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export interface ControlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ServiceHost {
  kind: 'systemd' | 'launchd';
  /** ~/.config/systemd/user or ~/Library/LaunchAgents. */
  unitDir: string;
  /** The user's id: launchd's gui/<uid> domain. */
  uid: number;
  /** Runs the control command: `systemctl --user <args…>` or `launchctl <args…>`. */
  control(args: readonly string[]): ControlResult;
}

/**
 * The service manager of this machine. SPACESYNC_SERVICE_UNIT_DIR replaces the unit folder and
 * SPACESYNC_SERVICE_CONTROL the control program (it gets the same arguments), for tests and for
 * packagers who keep units elsewhere.
 */
export function systemServiceHost(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ServiceHost {
  const kind = platform === 'darwin' ? 'launchd' : 'systemd';
  const home = os.homedir();
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const unitDir =
    env.SPACESYNC_SERVICE_UNIT_DIR || (kind === 'launchd' ? path.join(home, 'Library', 'LaunchAgents') : path.join(configHome, 'systemd', 'user'));
  const program = env.SPACESYNC_SERVICE_CONTROL || (kind === 'launchd' ? 'launchctl' : 'systemctl');
  const prefix = kind === 'systemd' ? ['--user'] : [];
  return {
    kind,
    unitDir,
    uid: process.getuid?.() ?? 0,
    control(args) {
      const r = spawnSync(program, [...prefix, ...args], { encoding: 'utf8' });
      if (r.error) return { code: 127, stdout: '', stderr: `${program}: ${r.error.message}` };
      return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
    },
  };
}

// What a service runs: the absolute paths of the node binary, of spacesync's entry script and of
// the mirror folder. Absolute, so the service manager needs no PATH (nvm, a user npm prefix or a
// clone install all work).
export interface ServiceTarget {
  node: string;
  script: string;
  dir: string;
}

// The exit codes after which the service manager must not restart the daemon: each waits for a
// person. 2: a safety check refused (a mass delete, an empty root); 64: a wrong command line.
// Every other failure (the network, the service, a crash) is retried. The launchd agent's wrapper
// turns these into a clean exit; the systemd template's RestartPreventExitStatus names the same
// codes (systemdUnit.test.ts holds them equal).
export const NO_RESTART_EXIT_CODES: readonly number[] = [2, 64];
