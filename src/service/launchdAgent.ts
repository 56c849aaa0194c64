// The launchd agent of one mirror folder (macOS), `com.spacesync.sync.<escaped folder>.plist`: it
// runs `<node> <spacesync> sync --dir <folder>` with absolute paths at login and again after a
// failure. launchd's KeepAlive cannot skip chosen exit codes, so the agent runs the daemon under a
// small sh wrapper that turns the codes waiting for a person (NO_RESTART_EXIT_CODES) into a clean
// exit, which KeepAlive { SuccessfulExit: false } does not restart: the systemd unit's
// RestartPreventExitStatus, the same way. The wrapper passes SIGTERM/SIGINT/SIGHUP on to the daemon.
import { NO_RESTART_EXIT_CODES, type ServiceTarget } from './serviceHost.js';
import { systemdEscapePath } from './systemdUnit.js';
import { statePath } from '../stateDir.js';

export function launchdLabel(dir: string): string {
  return `com.spacesync.sync.${systemdEscapePath(dir)}`;
}

/**
 * `sh -c WRAPPER spacesync <command…>` runs the command and exits as it did, except 0 for
 * NO_RESTART_EXIT_CODES. The trap is set before the daemon starts, so a signal never finds the
 * shell without it (it would end the shell and leave the daemon running); one that comes before
 * the daemon's pid is known is passed on as soon as it is.
 */
export const LAUNCHD_WRAPPER = [
  "term=''; child=''",
  'trap \'term=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null\' TERM INT HUP',
  '"$@" & child=$!',
  '[ -z "$term" ] || kill -TERM "$child" 2>/dev/null',
  'wait "$child"; code=$?',
  'while kill -0 "$child" 2>/dev/null; do wait "$child"; code=$?; done',
  `case "$code" in ${NO_RESTART_EXIT_CODES.join('|')}) exit 0 ;; esac`,
  'exit "$code"',
].join('\n');

/** The agent's ProgramArguments. */
export function launchdProgramArguments(target: ServiceTarget): string[] {
  return ['/bin/sh', '-c', LAUNCHD_WRAPPER, 'spacesync', target.node, target.script, 'sync', '--dir', target.dir];
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const str = (s: string) => `<string>${xml(s)}</string>`;

export function launchdAgent(target: ServiceTarget): string {
  const logs = statePath(target.dir, 'launchd');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- spacesync as a launchd agent for one mirror folder, written by \`spacesync service install\`
     and removed by \`spacesync service uninstall\`. The folder's .spacesync/config.json holds the link. -->
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>${str(launchdLabel(target.dir))}
  <key>ProgramArguments</key>
  <array>
${launchdProgramArguments(target)
  .map((a) => `    ${str(a)}`)
  .join('\n')}
  </array>
  <key>EnvironmentVariables</key>
  <dict><key>NODE_ENV</key><string>production</string></dict>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key>
  <dict><key>SuccessfulExit</key><false/></dict>
  <key>ThrottleInterval</key><integer>10</integer>
  <key>StandardOutPath</key>${str(`${logs}.out.log`)}
  <key>StandardErrorPath</key>${str(`${logs}.err.log`)}
</dict>
</plist>
`;
}
