// The daemon: the watcher and the poll that run the cycles and pushes, and what follows each of them
// (its report recorded, a git backup of the mirror, the counters for `status`).
export { afterReport, saveStats } from './afterWork.js';
export { type DaemonHandle, type DaemonOptions, FATAL_CODES, runDaemon } from './daemon.js';
export { GIT_PUSH_STATE, GitPusher, pushProblem, type GitPushState } from './gitPush.js';
export { PROBE_MAX_MS, type OutageEvent } from './outage.js';
