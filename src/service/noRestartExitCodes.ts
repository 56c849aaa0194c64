// The exit codes after which the service manager must not restart the daemon: each waits for a
// person. 2: a safety check refused (a mass delete, an empty root); 64: a wrong command line.
// Every other failure (the network, the service, a crash) is retried. The launchd agent's wrapper
// turns these into a clean exit; the systemd template's RestartPreventExitStatus names the same
// codes (systemdUnit.test.ts holds them equal).
export const NO_RESTART_EXIT_CODES: readonly number[] = [2, 64];
