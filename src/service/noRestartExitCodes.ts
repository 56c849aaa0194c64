// The exit codes after which the service manager must not restart the daemon: each waits for a
// person. 2: a safety check refused (a mass delete, an empty root); 64: a wrong command line.
// Every other failure (the network, the service, a crash) is retried. Shared by the systemd unit
// (RestartPreventExitStatus) and the launchd agent (its wrapper turns these into a clean exit).
export const NO_RESTART_EXIT_CODES: readonly number[] = [2, 64];
