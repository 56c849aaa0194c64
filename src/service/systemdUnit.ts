// The systemd user unit of one mirror folder, `spacesync@<escaped folder>.service`: it runs
// `<node> <spacesync> sync --dir <folder>` with absolute paths, restarts on failure except after
// the exit codes that wait for a person, and logs to the journal.
import { NO_RESTART_EXIT_CODES } from './noRestartExitCodes.js';
import type { ServiceTarget } from './serviceTarget.js';
import { systemdEscapePath } from './systemdEscapePath.js';

/** The unit's file name for the mirror folder `dir`. */
export function systemdUnitName(dir: string): string {
  return `spacesync@${systemdEscapePath(dir)}.service`;
}

/** One argument of ExecStart, quoted: specifiers (%) and variables ($) are taken literally. */
function execArg(s: string): string {
  if (/[\n\r]/.test(s)) throw new Error(`a service cannot run a path with a line break in it: ${JSON.stringify(s)}`);
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

export function systemdUnit(target: ServiceTarget): string {
  const description = target.dir.replace(/%/g, '%%');
  return `# spacesync as a systemd user service for one mirror folder. Written by
#   spacesync service install --dir ${target.dir}
# and removed by \`spacesync service uninstall --dir …\`; edit it through those commands.
# The folder's .spacesync/config.json (written by \`spacesync init\`, mode 0600) holds the link, so
# the link never appears in this unit.
[Unit]
Description=spacesync: two-way sync of a notes space with ${description}
After=network-online.target
Wants=network-online.target
# A broken config fails at once: stop retrying after 5 failures in 10 minutes.
StartLimitIntervalSec=600
StartLimitBurst=5

[Service]
Type=simple
ExecStart=${[target.node, target.script, 'sync', '--dir', target.dir].map(execArg).join(' ')}
Restart=on-failure
RestartSec=10
# Exit code 2 means a safety check refused (a mass delete), 64 a wrong command line: both wait
# for a person (\`spacesync status --dir …\` says what happened). Everything else is retried.
RestartPreventExitStatus=${NO_RESTART_EXIT_CODES.join(' ')}
StandardOutput=journal
StandardError=journal
Environment=NODE_ENV=production

[Install]
WantedBy=default.target
`;
}
